// sd_notify(3) and friends from libsystemd.
#include <systemd/sd-daemon.h>
