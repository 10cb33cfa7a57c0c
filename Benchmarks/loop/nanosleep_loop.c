// The reference for `poise run`'s wake-up lateness: the smallest possible fixed-rate loop,
// clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) to absolute deadlines, nothing else.
// Usage: nanosleep_loop RATE_HZ SECONDS [FIFO_PRIORITY CPU]
//   → prints {"ticks": …, "lateness_us": {p50, p99, p999, max}}
// With a priority (and a CPU ≥ 0) it runs like `poise run` with loop.realtime_priority and
// loop.cpu, so the two are compared under the same scheduling.
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <errno.h>
#include <sched.h>
#include <sys/mman.h>

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int compare(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    double rate = argc > 1 ? atof(argv[1]) : 1000, seconds = argc > 2 ? atof(argv[2]) : 60;
    int64_t period = (int64_t)(1e9 / rate + 0.5);
    long ticks = (long)(rate * seconds + 0.5);
    int64_t *lateness = malloc(sizeof(int64_t) * (size_t)ticks);
    for (long i = 0; i < ticks; i++) lateness[i] = 0;  // touch every page before timing
    if (argc > 4) {
        struct sched_param param = {.sched_priority = atoi(argv[3])};
        if (param.sched_priority > 0 && sched_setscheduler(0, SCHED_FIFO, &param) != 0) perror("SCHED_FIFO");
        int cpu = atoi(argv[4]);
        if (cpu >= 0) {
            cpu_set_t set;
            CPU_ZERO(&set);
            CPU_SET(cpu, &set);
            if (sched_setaffinity(0, sizeof set, &set) != 0) perror("affinity");
        }
        mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT);
    }
    int64_t deadline = now_ns();
    for (long i = 0; i < ticks; i++) {
        deadline += period;
        struct timespec ts = {deadline / 1000000000, deadline % 1000000000};
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {}
        int64_t late = now_ns() - deadline;
        lateness[i] = late > 0 ? late : 0;
        if (late > period) deadline += (late / period) * period;  // re-anchor like poise
    }
    qsort(lateness, (size_t)ticks, sizeof(int64_t), compare);
#define Q(q) (lateness[(long)((q) * (ticks - 1))] / 1000.0)
    printf("{\"ticks\": %ld, \"lateness_us\": {\"p50\": %.3f, \"p99\": %.3f, \"p999\": %.3f, \"max\": %.3f}}\n",
           ticks, Q(0.5), Q(0.99), Q(0.999), lateness[ticks - 1] / 1000.0);
    free(lateness);
    return 0;
}
