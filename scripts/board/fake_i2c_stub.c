// A host stand-in for the kernel's i2c-stub (scripts/measure-board-footprint), linked into the
// x86-64 board build with -Wl,--wrap=ioctl: the i2c-dev ioctls, on any descriptor, are answered
// from one register file per address (SMBus only, no I2C_RDWR, as i2c-stub), holding what the
// x86 kernel VM writes into i2c-stub (Tests/vm/guest-tests.sh): an MPU-9250 at 0x68 lying still
// at 1 g, its AK8963 at 0x0C. Every other ioctl goes to the C library.
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <linux/i2c.h>
#include <linux/i2c-dev.h>

int __real_ioctl(int fd, unsigned long request, ...);
static uint8_t regs[128][256];
static uint8_t pointer[128];
static int current = -1, ready = 0;

static void setup(void) {
  ready = 1;
  uint8_t *m = regs[0x68], *k = regs[0x0c];
  m[0x75] = 0x71; m[0x3a] = 0x01;
  const uint8_t frame[14] = {0, 0, 0, 0, 0x08, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  memcpy(m + 0x3b, frame, 14);
  k[0x00] = 0x48; k[0x10] = k[0x11] = k[0x12] = 0x80; k[0x02] = 0x01;
  const uint8_t mag[6] = {0x64, 0x00, 0xc8, 0x00, 0x9c, 0xff};
  memcpy(k + 0x03, mag, 6); k[0x09] = 0x10;
}

int __wrap_ioctl(int fd, unsigned long request, ...) {
  va_list ap; va_start(ap, request); void *arg = va_arg(ap, void *); va_end(ap);
  if (!ready) setup();
  switch (request) {
  case I2C_SLAVE: case I2C_SLAVE_FORCE: {
    current = (int)(unsigned long)arg;
    return 0; }
  case I2C_FUNCS:
    *(unsigned long *)arg = I2C_FUNC_SMBUS_QUICK | I2C_FUNC_SMBUS_BYTE | I2C_FUNC_SMBUS_BYTE_DATA
      | I2C_FUNC_SMBUS_WORD_DATA | I2C_FUNC_SMBUS_I2C_BLOCK;
    return 0;
  case I2C_RDWR: errno = EOPNOTSUPP; return -1;
  case I2C_SMBUS: {
    struct i2c_smbus_ioctl_data *d = arg;
    if (current != 0x68 && current != 0x0c) { errno = ENXIO; return -1; }
    uint8_t *r = regs[current];
    int rd = d->read_write == I2C_SMBUS_READ;
    switch (d->size) {
    case I2C_SMBUS_QUICK: return 0;
    case I2C_SMBUS_BYTE:
      if (rd) d->data->byte = r[pointer[current]++]; else pointer[current] = d->command;
      return 0;
    case I2C_SMBUS_BYTE_DATA:
      if (rd) d->data->byte = r[d->command]; else r[d->command] = d->data->byte;
      return 0;
    case I2C_SMBUS_WORD_DATA:
      if (rd) d->data->word = r[d->command] | (r[(uint8_t)(d->command + 1)] << 8);
      else { r[d->command] = d->data->word & 0xff; r[(uint8_t)(d->command + 1)] = d->data->word >> 8; }
      return 0;
    case I2C_SMBUS_I2C_BLOCK_DATA: {
      int n = d->data->block[0]; if (n > 32) n = 32;
      for (int i = 0; i < n; i++) {
        uint8_t reg = (uint8_t)(d->command + i);
        if (rd) d->data->block[i + 1] = r[reg]; else r[reg] = d->data->block[i + 1];
      }
      // A live sensor: the accelerometer's z low byte changes between bursts (not stuck data).
      if (rd && current == 0x68 && d->command <= 0x40 && d->command + n > 0x40) r[0x40] = r[0x40] == 1 ? 2 : 1;
      return 0; }
    default: errno = EOPNOTSUPP; return -1;
    }
  }
  default: return __real_ioctl(fd, request, arg);
  }
}
