#ifndef POISE_REALTIME_H
#define POISE_REALTIME_H
// sched_setaffinity and pthread_setname_np need _GNU_SOURCE, which Swift's Glibc module does
// not define: two one-function C shims. Each returns 0 or an errno value.

// Pins the calling thread to `cpu`.
int poise_pin_thread_to_cpu(int cpu);
// Names the calling thread (what top -H and /proc/PID/task/TID/comm show; 15 bytes kept).
int poise_name_thread(const char *name);
// The board program's allocation counts (calls to malloc, calloc, realloc, posix_memalign,
// aligned_alloc): the calling thread's, the process's. Defined only in poise-board
// (scripts/board/allocation_count.c, linked by scripts/build-board); the host never calls them.
long long poise_board_thread_allocations(void);
long long poise_board_process_allocations(void);
#endif
