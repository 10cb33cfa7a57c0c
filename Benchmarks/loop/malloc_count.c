// LD_PRELOAD allocation counter for `scripts/bench-loop`: counts malloc, calloc, realloc,
// aligned allocations per thread. `poise run` looks up poise_thread_malloc_count() with
// dlsym and reads it on the loop thread after the first tick and at the end, so the
// statistics report how many allocations the ticks made (expected: 0).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>

static __thread int64_t count;
static void *(*real_malloc)(size_t), *(*real_calloc)(size_t, size_t), *(*real_realloc)(void *, size_t);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_aligned_alloc)(size_t, size_t);

// dlsym may call calloc itself: serve that from a small static arena.
static char bootstrap[4096];
static size_t bootstrap_used;

static void *bootstrap_alloc(size_t n) {
    size_t start = (bootstrap_used + 15) & ~(size_t)15;
    if (start + n > sizeof bootstrap) return NULL;
    bootstrap_used = start + n;
    return bootstrap + start;
}

int64_t poise_thread_malloc_count(void) { return count; }

void *malloc(size_t n) {
    if (!real_malloc) real_malloc = dlsym(RTLD_NEXT, "malloc");
    count++;
    return real_malloc(n);
}

void *calloc(size_t a, size_t b) {
    if (!real_calloc) {
        static int resolving;
        if (resolving) return bootstrap_alloc(a * b);
        resolving = 1;
        real_calloc = dlsym(RTLD_NEXT, "calloc");
        resolving = 0;
    }
    count++;
    return real_calloc(a, b);
}

void *realloc(void *p, size_t n) {
    if (!real_realloc) real_realloc = dlsym(RTLD_NEXT, "realloc");
    count++;
    return real_realloc(p, n);
}

int posix_memalign(void **p, size_t alignment, size_t n) {
    if (!real_posix_memalign) real_posix_memalign = dlsym(RTLD_NEXT, "posix_memalign");
    count++;
    return real_posix_memalign(p, alignment, n);
}

void *aligned_alloc(size_t alignment, size_t n) {
    if (!real_aligned_alloc) real_aligned_alloc = dlsym(RTLD_NEXT, "aligned_alloc");
    count++;
    return real_aligned_alloc(alignment, n);
}

void free(void *p) {
    static void (*real_free)(void *);
    if ((char *)p >= bootstrap && (char *)p < bootstrap + sizeof bootstrap) return;
    if (!real_free) real_free = dlsym(RTLD_NEXT, "free");
    real_free(p);
}
