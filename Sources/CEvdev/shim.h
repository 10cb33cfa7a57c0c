// The kernel's evdev and uinput interfaces (linux/input.h, linux/uinput.h); no library.
#include <linux/input.h>
#include <linux/uinput.h>
#include <sys/ioctl.h>
#include <poll.h>

// Swift cannot call ioctl(2) (variadic) nor expand the request macros that take arguments;
// these fixed-signature wrappers are the only place the evdev and uinput ioctls are issued.
// They return -1 and leave errno set.

static inline int poise_evdev_name(int fd, char *name, unsigned int length) {
    return ioctl(fd, EVIOCGNAME(length), name);
}

static inline int poise_evdev_bits(int fd, unsigned int type, unsigned char *bits, unsigned int length) {
    return ioctl(fd, EVIOCGBIT(type, length), bits);
}

static inline int poise_evdev_absinfo(int fd, unsigned int axis, struct input_absinfo *info) {
    return ioctl(fd, EVIOCGABS(axis), info);
}

static inline int poise_evdev_keys(int fd, unsigned char *bits, unsigned int length) {
    return ioctl(fd, EVIOCGKEY(length), bits);
}

// uinput: a virtual input device (tests, and trying a mapping without a pad).
static inline int poise_uinput_set_bit(int fd, unsigned long request, int value) {
    return ioctl(fd, request, value);
}
static inline unsigned long poise_ui_set_evbit(void) { return UI_SET_EVBIT; }
static inline unsigned long poise_ui_set_keybit(void) { return UI_SET_KEYBIT; }
static inline unsigned long poise_ui_set_absbit(void) { return UI_SET_ABSBIT; }

static inline int poise_uinput_setup(int fd, struct uinput_setup *setup) {
    return ioctl(fd, UI_DEV_SETUP, setup);
}

static inline int poise_uinput_abs_setup(int fd, struct uinput_abs_setup *setup) {
    return ioctl(fd, UI_ABS_SETUP, setup);
}

static inline int poise_uinput_create(int fd) { return ioctl(fd, UI_DEV_CREATE); }
static inline int poise_uinput_destroy(int fd) { return ioctl(fd, UI_DEV_DESTROY); }

/// The name of the input device the uinput device created (`inputN`), into `name`.
static inline int poise_uinput_sysname(int fd, char *name, unsigned int length) {
    return ioctl(fd, UI_GET_SYSNAME(length), name);
}
