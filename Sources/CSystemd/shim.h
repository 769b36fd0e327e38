// CSystemd: libsystemd's headers. There are no functions of our own: Swift
// calls libsystemd directly. (Its variadic calls are not used: Swift builds
// a notification and calls sd_notify, and sd-bus's variadic append and read
// are replaced by their non-variadic forms.)

// sd_notify(3) and friends: the daemon's readiness, status and watchdog.
#include <systemd/sd-daemon.h>
// sd-bus(3): the daemon's D-Bus interface (TiltScroll1, polkit, the bus
// driver), the client's calls, and asking systemd for the daemon's main PID.
#include <systemd/sd-bus.h>
