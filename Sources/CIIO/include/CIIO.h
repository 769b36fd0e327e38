// CIIO: the thin C layer between tiltscrolld and the kernel's IIO devices.
//
// Only what Swift cannot import or should not do by hand lives here: libudev
// enumeration, properties and monitoring behind a small API. No policy.
#ifndef CIIO_H
#define CIIO_H

#include <stddef.h>
#include <stdint.h>

// signalfd(2) and its siginfo record: Glibc's Swift module does not export
// <sys/signalfd.h>, and the event loop takes signals through a signalfd.
#include <sys/signalfd.h>

#endif
