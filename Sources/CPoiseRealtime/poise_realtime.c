#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/prctl.h>
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
    // What pthread_setname_np does for the calling thread (for another thread it formats a
    // /proc path with sprintf, which the board program's static link would then carry).
    return prctl(PR_SET_NAME, kept) == 0 ? 0 : errno;
}
