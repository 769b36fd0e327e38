// CLinux: the Linux and glibc headers that Glibc's Swift module does not
// export. There are no functions of our own: Swift calls these directly.
// Each can go once Glibc's module map lists it.

// signalfd(2) and struct signalfd_siginfo, for the event loop's signals.
#include <sys/signalfd.h>

// mallopt(3), for the daemon's heap policy (tiltscrolld/System/HeapPolicy.swift).
#include <malloc.h>
