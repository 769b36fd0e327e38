// CUdev: libudev's header, for discovering accelerometers, touchscreens and
// pens, and for the hotplug monitor. There are no functions of our own:
// Swift calls libudev directly (TiltScrollCommon/Devices, tiltscrolld/Udev).
// Its one macro, udev_list_entry_foreach, is a loop over
// udev_list_entry_get_next, written as such in Swift.
#include <libudev.h>
