// CIIO: the C headers tiltscrolld imports for the kernel's IIO devices, udev
// hotplug, signals and the heap's policy. There are no functions of our own:
// Swift calls libudev directly (Sources/tiltscrolld/Udev). A shim belongs here
// only where Swift cannot call the C as it stands (macros, variadic or inline
// functions, struct layouts), with why and when it could go.

// libudev: enumeration, device properties and the hotplug monitor. Its one
// macro, udev_list_entry_foreach, is a loop over udev_list_entry_get_next,
// written as such in Swift.
#include <libudev.h>

// signalfd(2) and struct signalfd_siginfo, for the event loop's signals.
// Why here: Glibc's Swift module does not export <sys/signalfd.h>. It can go
// once Glibc's module map lists it.
#include <sys/signalfd.h>

// mallopt(3), for the daemon's heap policy (System/HeapPolicy.swift).
// Why here: Glibc's Swift module does not export <malloc.h>. It can go once
// Glibc's module map lists it.
#include <malloc.h>
