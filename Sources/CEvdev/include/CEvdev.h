// CEvdev: what tiltscrolld cannot take from libevdev's and the kernel's
// headers as they stand. Swift calls libevdev itself directly (the CLibevdev
// module); a shim belongs here only where Swift cannot call the C as it is
// (macros, variadic or inline functions, struct layouts), with why and when
// it could go.
#ifndef CEVDEV_H
#define CEVDEV_H

#include <stdint.h>

// The event type and code macros (EV_REL, REL_WHEEL_HI_RES, SYN_REPORT,
// SW_TABLET_MODE, BUS_VIRTUAL...) and __kernel_ulong_t.
#include <linux/input.h>

// One kernel input event record, laid out exactly like `struct input_event`,
// so the scroll device writes a whole frame of them in one write(2).
//
// Why a mirror: with 64-bit time_t on 32-bit architectures the kernel header
// replaces the `time` member by `__sec`/`__usec` behind macros, so Swift would
// see a different struct per architecture. The kernel ABI itself is always two
// `__kernel_ulong_t` then type, code, value; the asserts in shims.c check the
// mirror against the header the daemon is built with. It could go if
// tiltscroll were built only for 64-bit architectures, where Swift imports
// `struct input_event` (with its `struct timeval time`) the same everywhere.
struct cevdev_input_event {
    __kernel_ulong_t seconds;
    __kernel_ulong_t microseconds;
    uint16_t type;
    uint16_t code;
    int32_t value;
};

#endif
