#include "CEvdev.h"

#include <errno.h>
#include <libevdev/libevdev-uinput.h>
#include <libevdev/libevdev.h>
#include <stddef.h>

// The mirror must match the kernel record byte for byte: Swift fills arrays of
// it and writes them to uinput in one write(2).
_Static_assert(sizeof(struct cevdev_input_event) == sizeof(struct input_event),
               "cevdev_input_event must have the size of struct input_event");
_Static_assert(offsetof(struct cevdev_input_event, type) == offsetof(struct input_event, type),
               "cevdev_input_event.type must sit where input_event.type does");
_Static_assert(offsetof(struct cevdev_input_event, code) == offsetof(struct input_event, code),
               "cevdev_input_event.code must sit where input_event.code does");
_Static_assert(offsetof(struct cevdev_input_event, value) == offsetof(struct input_event, value),
               "cevdev_input_event.value must sit where input_event.value does");

int cevdev_scroll_device_create(const char *name, uint16_t bustype, uint16_t vendor, uint16_t product,
                                uint16_t version, bool horizontal, struct libevdev_uinput **out) {
    struct libevdev *template = libevdev_new();
    if (template == NULL)
        return -ENOMEM;

    libevdev_set_name(template, name);
    libevdev_set_id_bustype(template, bustype);
    libevdev_set_id_vendor(template, vendor);
    libevdev_set_id_product(template, product);
    libevdev_set_id_version(template, version);

    int rc = libevdev_enable_event_type(template, EV_REL);
    if (rc == 0)
        rc = libevdev_enable_event_code(template, EV_REL, REL_WHEEL, NULL);
    if (rc == 0)
        rc = libevdev_enable_event_code(template, EV_REL, REL_WHEEL_HI_RES, NULL);
    if (rc == 0 && horizontal)
        rc = libevdev_enable_event_code(template, EV_REL, REL_HWHEEL, NULL);
    if (rc == 0 && horizontal)
        rc = libevdev_enable_event_code(template, EV_REL, REL_HWHEEL_HI_RES, NULL);
    if (rc != 0) {
        // libevdev returns -1 here, not an errno: only an out-of-range code can fail.
        libevdev_free(template);
        return -EINVAL;
    }

    // The uinput device keeps its own copy of the name and ids, so the
    // template is freed whatever the outcome.
    rc = libevdev_uinput_create_from_device(template, LIBEVDEV_UINPUT_OPEN_MANAGED, out);
    libevdev_free(template);
    return rc;
}

int cevdev_scroll_device_fd(const struct libevdev_uinput *device) { return libevdev_uinput_get_fd(device); }

const char *cevdev_scroll_device_node(struct libevdev_uinput *device) { return libevdev_uinput_get_devnode(device); }

const char *cevdev_scroll_device_syspath(struct libevdev_uinput *device) {
    return libevdev_uinput_get_syspath(device);
}

void cevdev_scroll_device_destroy(struct libevdev_uinput *device) { libevdev_uinput_destroy(device); }

int cevdev_input_device_attach(int fd, struct libevdev **out) { return libevdev_new_from_fd(fd, out); }

const char *cevdev_input_device_name(const struct libevdev *device) {
    const char *name = libevdev_get_name(device);
    return name != NULL ? name : "";
}

uint16_t cevdev_input_device_bustype(const struct libevdev *device) {
    return (uint16_t)libevdev_get_id_bustype(device);
}

uint16_t cevdev_input_device_vendor(const struct libevdev *device) { return (uint16_t)libevdev_get_id_vendor(device); }

uint16_t cevdev_input_device_product(const struct libevdev *device) {
    return (uint16_t)libevdev_get_id_product(device);
}

bool cevdev_input_device_has_switch(const struct libevdev *device, unsigned int code) {
    return libevdev_has_event_code(device, EV_SW, code) == 1;
}

int cevdev_input_device_switch_state(const struct libevdev *device, unsigned int code) {
    return libevdev_get_event_value(device, EV_SW, code) != 0 ? 1 : 0;
}

int cevdev_input_device_drain(struct libevdev *device) {
    unsigned int flags = LIBEVDEV_READ_FLAG_NORMAL;
    for (;;) {
        struct input_event event;
        int rc = libevdev_next_event(device, flags, &event);
        if (rc == LIBEVDEV_READ_STATUS_SYNC) {
            // SYN_DROPPED: this event and the following ones are libevdev's
            // replay of the state the kernel lost; keep reading them in sync
            // mode until libevdev says they are exhausted.
            flags = LIBEVDEV_READ_FLAG_SYNC;
            continue;
        }
        if (rc == LIBEVDEV_READ_STATUS_SUCCESS)
            continue;
        if (rc == -EAGAIN) {
            if (flags == LIBEVDEV_READ_FLAG_SYNC) {
                // The replay is over; events queued after it are read normally.
                flags = LIBEVDEV_READ_FLAG_NORMAL;
                continue;
            }
            return 0;
        }
        if (rc == -EINTR)
            continue;
        return rc < 0 ? rc : -EIO;
    }
}

void cevdev_input_device_detach(struct libevdev *device) { libevdev_free(device); }
