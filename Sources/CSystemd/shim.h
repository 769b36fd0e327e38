// sd_notify(3) and friends from libsystemd.
#include <systemd/sd-daemon.h>
// sd-bus(3), to ask systemd for the main PID of tiltscrolld.service.
#include <systemd/sd-bus.h>
