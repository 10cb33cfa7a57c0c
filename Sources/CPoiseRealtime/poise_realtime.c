#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include "poise_realtime.h"

int poise_pin_thread_to_cpu(int cpu) {
    if (cpu < 0 || cpu >= CPU_SETSIZE) return EINVAL;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof set, &set) == 0 ? 0 : errno;
}

int poise_name_thread(const char *name) {
    char kept[16];
    strncpy(kept, name, sizeof kept - 1);
    kept[sizeof kept - 1] = 0;
    return pthread_setname_np(pthread_self(), kept);
}
