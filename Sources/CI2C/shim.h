// libi2c (Debian's libi2c-dev) and the kernel's i2c-dev ioctl definitions.
#include <linux/i2c.h>
#include <linux/i2c-dev.h>
#include <i2c/smbus.h>
#include <sys/ioctl.h>
#include <errno.h>

// Swift cannot call C variadic functions such as ioctl(2); these fixed-signature wrappers
// are the only place the i2c-dev ioctls are issued. They return -1 and leave errno set.

static inline int poise_i2c_set_slave(int fd, unsigned long address) {
    return ioctl(fd, I2C_SLAVE, address);
}

static inline int poise_i2c_funcs(int fd, unsigned long *functionality) {
    return ioctl(fd, I2C_FUNCS, functionality);
}

static inline int poise_i2c_rdwr(int fd, struct i2c_msg *messages, unsigned int count) {
    struct i2c_rdwr_ioctl_data data = { messages, count };
    return ioctl(fd, I2C_RDWR, &data);
}

static inline int poise_errno(void) { return errno; }
static inline void poise_set_errno(int value) { errno = value; }
