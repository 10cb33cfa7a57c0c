// libgpiod v1.6 (Debian 12 and Raspberry Pi OS bookworm ship this version).
#include <gpiod.h>
