#ifndef POISE_REALTIME_H
#define POISE_REALTIME_H
// sched_setaffinity needs _GNU_SOURCE, which Swift's Glibc module does not define: a
// one-function C shim pins the calling thread. Returns 0 or an errno value.
int poise_pin_thread_to_cpu(int cpu);
#endif
