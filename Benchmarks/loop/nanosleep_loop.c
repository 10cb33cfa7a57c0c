// The reference for `poise run`'s wake-up lateness: the smallest possible fixed-rate loop,
// clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) to absolute deadlines, nothing else.
// Usage: nanosleep_loop RATE_HZ SECONDS [FIFO_PRIORITY CPU [WORK_US]]
//   → prints {"ticks": …, "lateness_us": {p50, p99, p999, max}, "compute_us": {…}}
// With a priority (and a CPU ≥ 0) it runs like `poise run` with loop.realtime_priority and
// loop.cpu, so the two are compared under the same scheduling.
// With WORK_US each tick also runs a fixed computation (floating-point arithmetic on a few
// cache lines, no memory allocation, no system call) calibrated before the loop to take
// WORK_US microseconds at the median, and reports its compute time like `poise run`: the
// spread of the same work from tick to tick is this machine's, not the program's.
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

/// A fixed amount of arithmetic: `rounds` passes over a small state vector.
static double work_state[64];
static void work(long rounds) {
    for (long r = 0; r < rounds; r++)
        for (int i = 0; i < 64; i++)
            work_state[i] = work_state[i] * 0.999999 + work_state[(i + 7) & 63] * 1e-6 + 1e-9;
}

/// Rounds of `work` whose median time is `micros`.
static long calibrate(double micros) {
    long rounds = 16;
    for (int attempt = 0; attempt < 30; attempt++) {
        int64_t t[101];
        for (int i = 0; i < 101; i++) {
            int64_t a = now_ns();
            work(rounds);
            t[i] = now_ns() - a;
        }
        // median by selection (small n)
        for (int i = 0; i < 51; i++)
            for (int j = i + 1; j < 101; j++)
                if (t[j] < t[i]) { int64_t x = t[i]; t[i] = t[j]; t[j] = x; }
        double ratio = micros * 1000.0 / (double)(t[50] > 0 ? t[50] : 1);
        if (ratio > 0.97 && ratio < 1.03) break;
        rounds = (long)(rounds * ratio) + 1;
    }
    return rounds;
}

static int compare(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    double rate = argc > 1 ? atof(argv[1]) : 1000, seconds = argc > 2 ? atof(argv[2]) : 60;
    int64_t period = (int64_t)(1e9 / rate + 0.5);
    long ticks = (long)(rate * seconds + 0.5);
    double work_us = argc > 5 ? atof(argv[5]) : 0;
    int64_t *lateness = malloc(sizeof(int64_t) * (size_t)ticks);
    int64_t *compute = malloc(sizeof(int64_t) * (size_t)ticks);
    for (long i = 0; i < ticks; i++) lateness[i] = compute[i] = 0;  // touch every page before timing
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
    for (int i = 0; i < 64; i++) work_state[i] = i;
    long rounds = work_us > 0 ? calibrate(work_us) : 0;
    int64_t deadline = now_ns();
    for (long i = 0; i < ticks; i++) {
        deadline += period;
        struct timespec ts = {deadline / 1000000000, deadline % 1000000000};
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {}
        int64_t late = now_ns() - deadline;
        lateness[i] = late > 0 ? late : 0;
        if (rounds) {
            int64_t wake = now_ns();
            work(rounds);
            compute[i] = now_ns() - wake;
        }
        if (late > period) deadline += (late / period) * period;  // re-anchor like poise
    }
    qsort(lateness, (size_t)ticks, sizeof(int64_t), compare);
    qsort(compute, (size_t)ticks, sizeof(int64_t), compare);
#define Q(a, q) (a[(long)((q) * (ticks - 1))] / 1000.0)
    printf("{\"ticks\": %ld, \"lateness_us\": {\"p50\": %.3f, \"p99\": %.3f, \"p999\": %.3f, \"max\": %.3f}",
           ticks, Q(lateness, 0.5), Q(lateness, 0.99), Q(lateness, 0.999), lateness[ticks - 1] / 1000.0);
    if (rounds)
        printf(", \"compute_us\": {\"p50\": %.3f, \"p99\": %.3f, \"p999\": %.3f, \"max\": %.3f}",
               Q(compute, 0.5), Q(compute, 0.99), Q(compute, 0.999), compute[ticks - 1] / 1000.0);
    printf("}\n");
    free(lateness);
    free(compute);
    return 0;
}
