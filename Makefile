# tiltscroll: build, test and install.
#
#   make deps     install the Debian packages the build and the tests need (uses sudo when not root)
#   make run      build and run the daemon (or its demo where no accelerometer exists)
#   make check    run every test: unit, umockdev integration, real kernel under QEMU
#   make install  install into $(DESTDIR)$(PREFIX) (see the install section below)

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
SWIFT_BUILD_FLAGS ?=
RELEASE_FLAGS = -c release --static-swift-stdlib $(SWIFT_BUILD_FLAGS)
BIN = .build/release/tiltscrolld

.PHONY: all build release deps run check
all: release

build:
	$(SWIFT) build $(SWIFT_BUILD_FLAGS)

release:
	$(SWIFT) build $(RELEASE_FLAGS)

deps:
	tools/install-deps

# The README's run command: the daemon where an accelerometer exists, the demo elsewhere.
run: release
	tools/run-daemon $(BIN)

# The README's test command (and .ci/run): every suite, one summary.
check:
	tools/run-tests
