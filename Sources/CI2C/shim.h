// libi2c (Debian's libi2c-dev) and the kernel's i2c-dev ioctl definitions.
#include <linux/i2c.h>
#include <linux/i2c-dev.h>
#include <i2c/smbus.h>
#include <sys/ioctl.h>
