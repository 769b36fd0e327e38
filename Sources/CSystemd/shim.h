// CSystemd: libsystemd's headers. There are no functions of our own: Swift
// calls libsystemd directly. (Its variadic sd_notifyf is not used: Swift
// builds the message and calls sd_notify.)

// sd_notify(3) and friends.
#include <systemd/sd-daemon.h>
// sd-bus(3), to ask systemd for the main PID of tiltscrolld.service.
#include <systemd/sd-bus.h>
