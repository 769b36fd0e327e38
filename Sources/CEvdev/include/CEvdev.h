// CEvdev: the thin C layer over libevdev: the uinput scroll device and
// reading input devices (the tablet-mode switch). No policy: names, ids and
// what counts as a switch are decided in Swift.
//
// Every function returns 0 or a negative errno (libevdev's convention) unless
// its comment says otherwise; none of them writes to stderr.
#ifndef CEVDEV_H
#define CEVDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// The event type and code macros (EV_REL, REL_WHEEL_HI_RES, SYN_REPORT,
// SW_TABLET_MODE, BUS_VIRTUAL...) import into Swift from here.
#include <linux/input.h>

// libevdev's handles stay opaque to Swift (it sees them as OpaquePointer).
struct libevdev;
struct libevdev_uinput;

// One kernel input event record, laid out exactly like `struct input_event`.
//
// Why a mirror: with 64-bit time_t on 32-bit architectures the kernel header
// replaces the `time` member by `__sec`/`__usec` behind macros, so Swift would
// see a different struct per architecture. The kernel ABI itself is always two
// `__kernel_ulong_t` then type, code, value; the asserts in shims.c check the
// mirror against the header the daemon is built with.
struct cevdev_input_event {
    __kernel_ulong_t seconds;
    __kernel_ulong_t microseconds;
    uint16_t type;
    uint16_t code;
    int32_t value;
};

// ---- The uinput scroll device ------------------------------------------------

// Creates a uinput device that has EV_REL with REL_WHEEL and REL_WHEEL_HI_RES,
// plus REL_HWHEEL and REL_HWHEEL_HI_RES when `horizontal` is true, and nothing
// else (no keys, no REL_X/REL_Y), with the given name and ids.
//
// Why a shim: building the template device, creating it through
// LIBEVDEV_UINPUT_OPEN_MANAGED (libevdev opens /dev/uinput with O_CLOEXEC and
// closes it on destroy) and freeing the template is one C idiom.
// On success stores the device in *out and returns 0; on failure returns a
// negative errno (-ENOENT: no /dev/uinput; -EACCES: no permission) and leaves
// *out untouched.
int cevdev_scroll_device_create(const char *name, uint16_t bustype, uint16_t vendor, uint16_t product,
                                uint16_t version, bool horizontal, struct libevdev_uinput **out);

// The /dev/uinput descriptor events are written to. Never fails.
int cevdev_scroll_device_fd(const struct libevdev_uinput *device);

// /dev/input/eventN of the device, or NULL if libevdev could not find it.
// The string belongs to the device.
const char *cevdev_scroll_device_node(struct libevdev_uinput *device);

// /sys/devices/virtual/input/inputN, or NULL. The string belongs to the device.
const char *cevdev_scroll_device_syspath(struct libevdev_uinput *device);

// Removes the device from the system, closes its descriptor and frees it.
void cevdev_scroll_device_destroy(struct libevdev_uinput *device);

// ---- Reading an input device -------------------------------------------------

// Attaches libevdev to an open evdev descriptor (it reads the name, ids,
// capabilities and current switch states). The descriptor stays the caller's.
// Returns 0 and stores the handle, or a negative errno (-ENOTTY: not an evdev
// node).
int cevdev_input_device_attach(int fd, struct libevdev **out);

// The kernel's name of the device; never NULL. The string belongs to the handle.
const char *cevdev_input_device_name(const struct libevdev *device);

// The device's struct input_id fields.
uint16_t cevdev_input_device_bustype(const struct libevdev *device);
uint16_t cevdev_input_device_vendor(const struct libevdev *device);
uint16_t cevdev_input_device_product(const struct libevdev *device);

// Whether the device reports the switch `code` (an SW_* constant), from its
// EV_SW capability bits.
bool cevdev_input_device_has_switch(const struct libevdev *device, unsigned int code);

// The last known state of switch `code`: 1 on, 0 off (also 0 when absent).
int cevdev_input_device_switch_state(const struct libevdev *device, unsigned int code);

// Reads every event pending on the non-blocking descriptor so libevdev's view
// of the switch states is current.
//
// Why a shim: libevdev's SYN_DROPPED protocol. When the kernel's buffer
// overflowed, libevdev_next_event reports LIBEVDEV_READ_STATUS_SYNC and the
// caller must read the synthesised catch-up events in sync mode before normal
// reading resumes; this loop does both.
// Returns 0 once nothing is pending, or a negative errno (-ENODEV: the device
// was unplugged).
int cevdev_input_device_drain(struct libevdev *device);

// Frees libevdev's state. Does not close the descriptor.
void cevdev_input_device_detach(struct libevdev *device);

#endif
