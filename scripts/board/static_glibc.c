// Two definitions that keep parts of glibc the board program never uses out of its static
// link (scripts/build-board links this object before the C library, so the archive members
// that would define these symbols are not pulled in; docs/board.md#footprint). Both are
// glibc 2.36's own names. If a later change links what needs the originals (the resolver:
// getaddrinfo, res_init), the link fails with a duplicate symbol instead of running wrong.
#define _GNU_SOURCE
#include <errno.h>  // program_invocation_short_name
#include <string.h>
#include <unistd.h>
#include <stdlib.h>

// pthread_create stores each new thread's resolver state in this thread-local pointer.
// glibc defines it beside res_init, whose member brings the resolver's start-up with it:
// reading /etc/resolv.conf and /etc/host.conf (with its warnings printed through the wide
// printf), the network interfaces' names through netlink — about 28 kB here, and with
// __assert_fail below the wide printf's 25 kB more. The program resolves no names
// (numeric addresses through inet_pton, docs/board.md), so nothing reads the pointer.
__attribute__((visibility("hidden"))) __thread void *__libc_resp;

static void say(const char *text) {
  if (text != NULL) (void)!write(STDERR_FILENO, text, strlen(text));
}

// glibc's internal assertions (its own code and libgpiod's are built with them) end here.
// glibc's version formats the message with the wide printf and translates it through
// gettext and iconv; this one writes the same line, untranslated as the program's C
// locale has it, and aborts as the original does.
void __assert_fail(const char *assertion, const char *file, unsigned int line, const char *function) {
  char digits[12];
  char *end = digits + sizeof digits, *cursor = end;
  do { *--cursor = (char)('0' + line % 10); line /= 10; } while (line != 0);
  say(program_invocation_short_name);
  say(": ");
  say(file);
  say(":");
  (void)!write(STDERR_FILENO, cursor, (size_t)(end - cursor));
  say(": ");
  if (function != NULL) { say(function); say(": "); }
  say("Assertion `");
  say(assertion);
  say("' failed.\n");
  abort();
}
