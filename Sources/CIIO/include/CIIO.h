// CIIO: the thin C layer between tiltscrolld and the kernel's IIO devices.
//
// Only what Swift cannot import or should not do by hand lives here: libudev
// enumeration, properties and monitoring behind a small API. No policy: which
// device is an accelerometer, which matrix wins and what an event means are
// decided in Swift. Attribute files are read in Swift, not here.
//
// Ownership: every string handed to a visitor belongs to libudev and is valid
// only during that call; copy what you keep. Errors are returned as negative
// errno values, never through a global.
#ifndef CIIO_H
#define CIIO_H

#include <stddef.h>
#include <stdint.h>

// signalfd(2) and its siginfo record: Glibc's Swift module does not export
// <sys/signalfd.h>, and the event loop takes signals through a signalfd.
#include <sys/signalfd.h>

/// What udev knows about one device of subsystem "iio" (an IIO device or an
/// IIO trigger). A field is NULL when udev has no value for it.
struct ciio_device_info {
    /// Absolute sysfs path, e.g. "/sys/devices/.../iio:device0".
    const char *syspath;
    /// Kernel name, e.g. "iio:device0" or "trigger0".
    const char *sysname;
    /// Device node, e.g. "/dev/iio:device0"; NULL for triggers.
    const char *devnode;
    /// The `name` sysfs attribute (the driver's IIO name, e.g. "accel_3d").
    const char *name;
    /// udev property ACCEL_MOUNT_MATRIX (hwdb 60-sensor.hwdb or a local rule).
    const char *mount_matrix;
    /// udev property ACCEL_LOCATION ("display" or "base").
    const char *location;
};

/// Called once per device; `context` is the caller's pointer, passed through.
typedef void (*ciio_device_visitor)(const struct ciio_device_info *info, void *context);

/// Visits every device of subsystem "iio" that libudev can enumerate, in
/// libudev's order (sorted by syspath).
///
/// Why a shim: libudev's list iteration, reference counting and per-device
/// lookups are macro- and pointer-heavy; Swift gets one call and plain strings.
///
/// Returns the number of devices visited (0 when there are none), or a
/// negative errno when libudev could not be set up or the scan failed.
int ciio_enumerate_iio(ciio_device_visitor visitor, void *context);

/// Looks up the device at `syspath` (any path that resolves to a device in
/// /sys, e.g. the /sys/bus/iio/devices/iio:deviceN link) and visits it once.
///
/// Why a shim: re-reading one device's udev properties after a `change`
/// event (a new hwdb matrix) without enumerating everything again.
///
/// Returns 1 when the device was visited, or a negative errno (-ENODEV when
/// no such device exists).
int ciio_describe_device(const char *syspath, ciio_device_visitor visitor, void *context);

/// A udev monitor on the "udev" netlink group, filtered to the "iio" and
/// "input" subsystems. Opaque; create with ciio_monitor_open.
struct ciio_monitor;

/// One event received from the monitor. Strings as in ciio_device_info.
struct ciio_event {
    /// "add", "remove", "change", "bind", "unbind", "move", ...
    const char *action;
    const char *subsystem;
    const char *syspath;
    /// NULL when the device has no node (IIO triggers, input parents).
    const char *devnode;
};

typedef void (*ciio_event_visitor)(const struct ciio_event *event, void *context);

/// Opens the monitor and starts receiving. Its descriptor is non-blocking and
/// close-on-exec, ready for the daemon's poll() loop.
///
/// Why a shim: libudev's monitor setup is four calls whose failure each needs
/// unwinding; Swift gets one call.
///
/// Returns the monitor, or NULL with a positive errno stored in *error.
struct ciio_monitor *ciio_monitor_open(int *error);

/// The descriptor to poll for POLLIN. Valid until ciio_monitor_close.
int ciio_monitor_fd(const struct ciio_monitor *monitor);

/// Receives one pending event and visits it.
///
/// Returns 1 when an event was visited, 0 when none is pending (never
/// blocks), or a negative errno on a receive error (the monitor stays usable;
/// -ENOBUFS means events were lost and a rescan is due).
int ciio_monitor_receive(struct ciio_monitor *monitor, ciio_event_visitor visitor, void *context);

/// Stops receiving and frees the monitor. NULL is accepted.
void ciio_monitor_close(struct ciio_monitor *monitor);

#endif
