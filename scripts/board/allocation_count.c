// The board program's allocation counter (scripts/build-board links it with
// -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=posix_memalign,--wrap=aligned_alloc):
// every call the program's own objects make to the C library's allocator — Embedded Swift's
// runtime allocates through posix_memalign and malloc — is counted for the calling thread and
// for the process, then passed on. glibc's calls inside itself are not wrapped (not counted).
// PoiseLoop's AllocationCounter reads the loop thread's count in the Embedded build, so
// `poise-board run --stats-json` reports the loop thread's allocations after start-up.
#include <stddef.h>
#include <stdatomic.h>

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *pointer, size_t size);
int __real_posix_memalign(void **pointer, size_t alignment, size_t size);
void *__real_aligned_alloc(size_t alignment, size_t size);

static _Thread_local long long thread_allocations;
static atomic_llong process_allocations;

static void count(void) {
  thread_allocations++;
  atomic_fetch_add_explicit(&process_allocations, 1, memory_order_relaxed);
}

void *__wrap_malloc(size_t size) { count(); return __real_malloc(size); }
void *__wrap_calloc(size_t count_, size_t size) { count(); return __real_calloc(count_, size); }
void *__wrap_realloc(void *pointer, size_t size) { count(); return __real_realloc(pointer, size); }
int __wrap_posix_memalign(void **pointer, size_t alignment, size_t size) {
  count();
  return __real_posix_memalign(pointer, alignment, size);
}
void *__wrap_aligned_alloc(size_t alignment, size_t size) { count(); return __real_aligned_alloc(alignment, size); }

long long poise_board_thread_allocations(void) { return thread_allocations; }
long long poise_board_process_allocations(void) {
  return atomic_load_explicit(&process_allocations, memory_order_relaxed);
}
