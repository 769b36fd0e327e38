// CEvdev: the thin C layer over libevdev: the uinput scroll device and
// reading input devices (the tablet-mode switch). No policy.
#ifndef CEVDEV_H
#define CEVDEV_H

#include <stddef.h>
#include <stdint.h>

#endif
