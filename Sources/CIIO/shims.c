// CIIO: libudev behind the small API declared in CIIO.h. No policy here.
#include "CIIO.h"

#include <errno.h>
#include <fcntl.h>
#include <libudev.h>
#include <stdlib.h>

// Fills `info` from a udev device. The strings stay owned by `device`.
static void ciio_fill_info(struct udev_device *device, struct ciio_device_info *info) {
    info->syspath = udev_device_get_syspath(device);
    info->sysname = udev_device_get_sysname(device);
    info->devnode = udev_device_get_devnode(device);
    info->name = udev_device_get_sysattr_value(device, "name");
    info->mount_matrix = udev_device_get_property_value(device, "ACCEL_MOUNT_MATRIX");
    info->location = udev_device_get_property_value(device, "ACCEL_LOCATION");
}

// libudev reports failures through errno (or a negative return); this keeps a
// missing errno from turning into "success".
static int ciio_negative_errno(int fallback) {
    return -(errno != 0 ? errno : fallback);
}

int ciio_enumerate_iio(ciio_device_visitor visitor, void *context) {
    errno = 0;
    struct udev *udev = udev_new();
    if (udev == NULL)
        return ciio_negative_errno(ENOMEM);

    struct udev_enumerate *enumerate = udev_enumerate_new(udev);
    if (enumerate == NULL) {
        int result = ciio_negative_errno(ENOMEM);
        udev_unref(udev);
        return result;
    }

    int result = udev_enumerate_add_match_subsystem(enumerate, "iio");
    if (result >= 0)
        result = udev_enumerate_scan_devices(enumerate);
    if (result < 0) {
        udev_enumerate_unref(enumerate);
        udev_unref(udev);
        return result;
    }

    int visited = 0;
    struct udev_list_entry *entry;
    udev_list_entry_foreach(entry, udev_enumerate_get_list_entry(enumerate)) {
        const char *syspath = udev_list_entry_get_name(entry);
        if (syspath == NULL)
            continue;
        // A device can vanish between the scan and this lookup (hotplug):
        // skipping it is the truth, not an error.
        struct udev_device *device = udev_device_new_from_syspath(udev, syspath);
        if (device == NULL)
            continue;
        struct ciio_device_info info;
        ciio_fill_info(device, &info);
        visitor(&info, context);
        udev_device_unref(device);
        visited++;
    }

    udev_enumerate_unref(enumerate);
    udev_unref(udev);
    return visited;
}

int ciio_describe_device(const char *syspath, ciio_device_visitor visitor, void *context) {
    if (syspath == NULL)
        return -EINVAL;
    errno = 0;
    struct udev *udev = udev_new();
    if (udev == NULL)
        return ciio_negative_errno(ENOMEM);

    struct udev_device *device = udev_device_new_from_syspath(udev, syspath);
    if (device == NULL) {
        int result = ciio_negative_errno(ENODEV);
        udev_unref(udev);
        return result;
    }
    struct ciio_device_info info;
    ciio_fill_info(device, &info);
    visitor(&info, context);
    udev_device_unref(device);
    udev_unref(udev);
    return 1;
}

struct ciio_monitor {
    struct udev *udev;
    struct udev_monitor *monitor;
};

struct ciio_monitor *ciio_monitor_open(int *error) {
    int unused;
    if (error == NULL)
        error = &unused;
    *error = 0;

    struct ciio_monitor *result = calloc(1, sizeof(*result));
    if (result == NULL) {
        *error = ENOMEM;
        return NULL;
    }
    errno = 0;
    result->udev = udev_new();
    if (result->udev == NULL) {
        *error = errno != 0 ? errno : ENOMEM;
        free(result);
        return NULL;
    }
    // "udev": events after udevd has processed them (rules, hwdb properties
    // applied, device node created), not the raw kernel ones.
    result->monitor = udev_monitor_new_from_netlink(result->udev, "udev");
    if (result->monitor == NULL) {
        *error = errno != 0 ? errno : ENOMEM;
        udev_unref(result->udev);
        free(result);
        return NULL;
    }

    int status = udev_monitor_filter_add_match_subsystem_devtype(result->monitor, "iio", NULL);
    if (status >= 0)
        status = udev_monitor_filter_add_match_subsystem_devtype(result->monitor, "input", NULL);
    if (status >= 0)
        status = udev_monitor_enable_receiving(result->monitor);
    if (status >= 0) {
        // libudev already creates the socket non-blocking; the loop must never
        // block in receive, so make sure of it rather than rely on that.
        int fd = udev_monitor_get_fd(result->monitor);
        int flags = fcntl(fd, F_GETFL);
        if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
            status = -errno;
    }
    if (status < 0) {
        *error = -status;
        udev_monitor_unref(result->monitor);
        udev_unref(result->udev);
        free(result);
        return NULL;
    }
    return result;
}

int ciio_monitor_fd(const struct ciio_monitor *monitor) {
    return udev_monitor_get_fd(monitor->monitor);
}

int ciio_monitor_receive(struct ciio_monitor *monitor, ciio_event_visitor visitor, void *context) {
    errno = 0;
    struct udev_device *device = udev_monitor_receive_device(monitor->monitor);
    if (device == NULL) {
        // libudev returns NULL both for "nothing pending" and for errors.
        if (errno == 0 || errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
            return 0;
        return -errno;
    }
    struct ciio_event event = {
        .action = udev_device_get_action(device),
        .subsystem = udev_device_get_subsystem(device),
        .syspath = udev_device_get_syspath(device),
        .devnode = udev_device_get_devnode(device),
    };
    visitor(&event, context);
    udev_device_unref(device);
    return 1;
}

void ciio_monitor_close(struct ciio_monitor *monitor) {
    if (monitor == NULL)
        return;
    udev_monitor_unref(monitor->monitor);
    udev_unref(monitor->udev);
    free(monitor);
}
