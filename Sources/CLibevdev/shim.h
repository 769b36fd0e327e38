// libevdev's headers, found through pkg-config (they live in libevdev-1.0/).
// Swift calls libevdev directly: the uinput scroll device and reading the
// tablet-mode switch.
#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
