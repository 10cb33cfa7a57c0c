// The C library as the Embedded Swift builds (the board binary, scripts/build-embedded) see
// it: glibc's own headers, imported without Swift's Glibc overlay, which Embedded Swift does
// not have. Only PoiseTraces' OS edge imports this, and only when compiling in Embedded mode;
// the host build imports Glibc. For aarch64-none-none-elf the headers are the cross
// package's (libc6-dev-arm64-cross): -isystem /usr/aarch64-linux-gnu/include -D__linux__.
//
// Swift cannot call variadic functions nor read `errno` (a macro calling a function); these
// fixed-signature shims are what Glibc's overlay provides (PoiseTraces/SystemLibrary.swift
// gives them the overlay's Swift names).
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <unistd.h>

static inline int poise_libc_errno(void) { return errno; }
static inline void poise_libc_set_errno(int value) { errno = value; }

static inline int poise_libc_open(const char *path, int flags, mode_t mode) { return open(path, flags, mode); }
static inline int poise_libc_fcntl(int fd, int command, long argument) { return fcntl(fd, command, argument); }
static inline int poise_libc_ioctl(int fd, unsigned long request, void *argument) { return ioctl(fd, request, argument); }
