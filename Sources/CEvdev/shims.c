// CEvdev has no functions: this file holds the compile-time checks of the
// struct it mirrors (see CEvdev.h), which is why the module is a C target.
#include "CEvdev.h"

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
