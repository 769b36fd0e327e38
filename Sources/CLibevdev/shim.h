// libevdev's headers, found through pkg-config (they live in libevdev-1.0/).
#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
