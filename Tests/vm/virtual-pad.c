/* A gamepad the kernel believes in, for the x86 kernel VM's board-gamepad-uinput test
 * (Tests/vm/guest-tests.sh): an Xbox-like pad made through /dev/uinput, its axes -32768…32767,
 * whose events the test writes as lines on standard input. scripts/kernel-test compiles it
 * with the host's C compiler (the guest runs it with the host's /usr).
 *
 *   virtual-pad NAME     makes the pad, waits for its /dev/input/eventN, prints
 *                        "virtual-pad: NAME: /dev/input/eventN", then reads lines:
 *                        "AXIS VALUE" (x, y, rx, ry) or "BUTTON VALUE" (south, east, north,
 *                        west, select, start; 1 pressed, 0 released), each written with a
 *                        SYN_REPORT. End of input unplugs it.
 *
 * Exit 0 after the unplug; 1 when the pad cannot be made (the reason on standard error,
 * "virtual-pad: open /dev/uinput: No such file or directory"); 2 for a line it cannot read. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/uinput.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const struct { const char *name; int type, code; } controls[] = {
    {"x", EV_ABS, ABS_X}, {"y", EV_ABS, ABS_Y}, {"rx", EV_ABS, ABS_RX}, {"ry", EV_ABS, ABS_RY},
    {"south", EV_KEY, BTN_SOUTH}, {"east", EV_KEY, BTN_EAST}, {"north", EV_KEY, BTN_NORTH},
    {"west", EV_KEY, BTN_WEST}, {"select", EV_KEY, BTN_SELECT}, {"start", EV_KEY, BTN_START},
};
enum { control_count = sizeof controls / sizeof controls[0] };

static int fail(const char *what) {
    fprintf(stderr, "virtual-pad: %s: %s\n", what, strerror(errno));
    return 1;
}

static int emit(int fd, int type, int code, int value) {
    struct input_event event;
    memset(&event, 0, sizeof event);
    event.type = type;
    event.code = code;
    event.value = value;
    return write(fd, &event, sizeof event) == (ssize_t)sizeof event ? 0 : -1;
}

/* The pad's event node, once the kernel (devtmpfs) has made it: "/dev/input/eventN" in `path`. */
static int event_node(int fd, char *path, size_t size) {
    char sysname[64], directory[160];
    if (ioctl(fd, UI_GET_SYSNAME(sizeof sysname), sysname) < 0) return fail("UI_GET_SYSNAME");
    snprintf(directory, sizeof directory, "/sys/devices/virtual/input/%s", sysname);
    /* The limit only ends a broken run (10 s): the node normally exists at once. */
    for (int tries = 0; tries < 1000; tries++) {
        DIR *dir = opendir(directory);
        struct dirent *entry;
        while (dir && (entry = readdir(dir))) {
            struct stat info;
            if (strncmp(entry->d_name, "event", 5) != 0) continue;
            snprintf(path, size, "/dev/input/%s", entry->d_name);
            if (stat(path, &info) == 0 && S_ISCHR(info.st_mode)) { closedir(dir); return 0; }
        }
        if (dir) closedir(dir);
        struct timespec pause = {0, 10000000};
        nanosleep(&pause, NULL);
    }
    fprintf(stderr, "virtual-pad: %s has no event node in /dev/input after 10 s\n", directory);
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: virtual-pad NAME (then lines \"CONTROL VALUE\" on standard input)\n");
        return 2;
    }
    int fd = open("/dev/uinput", O_WRONLY | O_CLOEXEC);
    if (fd < 0) return fail("open /dev/uinput");
    if (ioctl(fd, UI_SET_EVBIT, EV_KEY) < 0 || ioctl(fd, UI_SET_EVBIT, EV_ABS) < 0) return fail("UI_SET_EVBIT");
    for (int i = 0; i < control_count; i++) {
        if (controls[i].type == EV_KEY) {
            if (ioctl(fd, UI_SET_KEYBIT, controls[i].code) < 0) return fail("UI_SET_KEYBIT");
            continue;
        }
        struct uinput_abs_setup axis;
        memset(&axis, 0, sizeof axis);
        axis.code = controls[i].code;
        axis.absinfo.minimum = -32768;
        axis.absinfo.maximum = 32767;
        if (ioctl(fd, UI_SET_ABSBIT, controls[i].code) < 0 || ioctl(fd, UI_ABS_SETUP, &axis) < 0) return fail("UI_ABS_SETUP");
    }
    struct uinput_setup setup;
    memset(&setup, 0, sizeof setup);
    setup.id.bustype = BUS_USB;
    setup.id.vendor = 0x1209; /* pid.codes' test vendor */
    setup.id.product = 0x0001;
    snprintf(setup.name, sizeof setup.name, "%s", argv[1]);
    if (ioctl(fd, UI_DEV_SETUP, &setup) < 0) return fail("UI_DEV_SETUP");
    if (ioctl(fd, UI_DEV_CREATE) < 0) return fail("UI_DEV_CREATE");
    char node[300];
    if (event_node(fd, node, sizeof node) != 0) return 1;
    printf("virtual-pad: %s: %s\n", argv[1], node);
    fflush(stdout);

    char line[128], name[32];
    int value, status = 0;
    while (status == 0 && fgets(line, sizeof line, stdin)) {
        if (sscanf(line, "%31s %d", name, &value) != 2) {
            fprintf(stderr, "virtual-pad: expected \"CONTROL VALUE\", got: %s", line);
            status = 2;
            break;
        }
        int i = 0;
        while (i < control_count && strcmp(controls[i].name, name) != 0) i++;
        if (i == control_count) {
            fprintf(stderr, "virtual-pad: no control named %s (x, y, rx, ry, south, east, north, west, select, start)\n", name);
            status = 2;
        } else if (emit(fd, controls[i].type, controls[i].code, value) < 0 || emit(fd, EV_SYN, SYN_REPORT, 0) < 0) {
            status = fail("write");
        }
    }
    ioctl(fd, UI_DEV_DESTROY);
    close(fd);
    return status;
}
