# tiltscroll: build, test and install.
#
#   make deps       install the Debian packages building and running the daemon need (sudo when not root)
#   make run        build and run the daemon (or its demo where no accelerometer exists)
#   make test-deps  install those and every package the tests need besides
#   make check      run every test: unit, umockdev integration, service, real kernel under QEMU
#   make bench-deps install those and what Benchmarks/ needs besides
#   make install    install into $(DESTDIR)$(PREFIX) (see the install section below)
#
# The packages: building's are debian/control's Build-Depends (tools/build-deps),
# the suites' the rows of tools/deps.table (see tools/install-deps).

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
SWIFT_BUILD_FLAGS ?=
RELEASE_FLAGS = -c release --static-swift-stdlib $(SWIFT_BUILD_FLAGS)
BIN = .build/release/tiltscrolld

.PHONY: all build release deps test-deps bench-deps run check
all: release

build:
	$(SWIFT) build $(SWIFT_BUILD_FLAGS)

release:
	$(SWIFT) build $(RELEASE_FLAGS)

# The README's run command starts with this: what the build and the daemon need.
deps:
	tools/install-deps run

# The README's test command (and .ci/run) starts with this: that and what every suite runs.
test-deps:
	tools/install-deps check

bench-deps:
	tools/install-deps bench

# The README's run command: the daemon where an accelerometer exists, the demo elsewhere.
run: release
	tools/run-daemon $(BIN)

# The README's test command (and .ci/run): every suite, one summary.
check:
	tools/run-tests

# ---------------------------------------------------------------------------
# install / uninstall
#
#   make release && sudo make install                 into /usr/local (from source)
#   make install PREFIX=/usr DESTDIR=$(pwd)/pkgroot   as a distribution package does
#
# PREFIX defaults to /usr/local, the place for software built from source:
# it never overwrites files the package manager owns, and systemd and udev
# read units and rules under /usr/local/lib too. Packages use PREFIX=/usr.
# The configuration stays in SYSCONFDIR (/etc) whatever the prefix; the
# daemon is told where it is when SYSCONFDIR is not /etc.
#
# /etc/tiltscroll.conf belongs to the administrator: install writes the
# commented example there only when no file exists (an existing one is kept
# as it is), and always puts a copy in DOCDIR to compare with. uninstall
# removes /etc/tiltscroll.conf only when it is still the unchanged example.
# The state directory (/var/lib/tiltscroll) is systemd's and is left alone.
#
# install takes the binary from `make release` (BIN); it does not build, so
# that `sudo make install` never runs the compiler as root.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
SYSCONFDIR ?= /etc
UNITDIR ?= $(PREFIX)/lib/systemd/system
UDEVRULESDIR ?= $(PREFIX)/lib/udev/rules.d
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/tiltscroll
# dbus-daemon reads bus policies from /usr/share/dbus-1/system.d (the
# packages' place) and /etc/dbus-1/system.d (the administrator's) only, and
# polkitd reads actions from /usr/share/polkit-1/actions only: neither looks
# under /usr/local. From source the policy goes to /etc, the actions to
# /usr/share (a file name of its own, which no package owns).
DBUSPOLICYDIR ?= $(if $(filter /usr /usr/,$(PREFIX)),$(PREFIX)/share/dbus-1/system.d,$(SYSCONFDIR)/dbus-1/system.d)
POLKITACTIONDIR ?= /usr/share/polkit-1/actions
DBUSINTERFACEDIR ?= $(PREFIX)/share/dbus-1/interfaces
INSTALL ?= install
# The GNOME Shell extension, system-wide: the shell looks in every
# $XDG_DATA_DIRS/gnome-shell/extensions, /usr/local/share's included.
GNOMESHELLEXTENSIONDIR ?= $(PREFIX)/share/gnome-shell/extensions
GNOME_EXTENSION = $(GNOMESHELLEXTENSIONDIR)/tiltscroll@tiltscroll.github.io
GNOME_EXTENSION_FILES = metadata.json extension.js toggle.js service.js notifier.js errors.js sensitivity.js \
	io.github.tiltscroll.TiltScroll1.xml icons/tiltscroll-symbolic.svg

EXECSTART = $(BINDIR)/tiltscrolld$(if $(filter-out /etc /etc/,$(SYSCONFDIR)), --config $(SYSCONFDIR)/tiltscroll.conf)

.PHONY: install uninstall
install:
	@test -x '$(BIN)' || { echo "$(BIN) is missing: run 'make release' first (as yourself, not root), or pass BIN=path" >&2; exit 1; }
	$(INSTALL) -d '$(DESTDIR)$(BINDIR)' '$(DESTDIR)$(UNITDIR)' '$(DESTDIR)$(UDEVRULESDIR)' \
		'$(DESTDIR)$(MANDIR)/man8' '$(DESTDIR)$(MANDIR)/man5' '$(DESTDIR)$(DOCDIR)' '$(DESTDIR)$(SYSCONFDIR)' \
		'$(DESTDIR)$(DBUSPOLICYDIR)' '$(DESTDIR)$(POLKITACTIONDIR)' '$(DESTDIR)$(DBUSINTERFACEDIR)'
	$(INSTALL) -m 0755 '$(BIN)' '$(DESTDIR)$(BINDIR)/tiltscrolld'
	sed -e 's|^ExecStart=.*|ExecStart=$(EXECSTART)|' systemd/tiltscrolld.service > '$(DESTDIR)$(UNITDIR)/tiltscrolld.service.tmp'
	chmod 0644 '$(DESTDIR)$(UNITDIR)/tiltscrolld.service.tmp'
	mv -f '$(DESTDIR)$(UNITDIR)/tiltscrolld.service.tmp' '$(DESTDIR)$(UNITDIR)/tiltscrolld.service'
	$(INSTALL) -m 0644 udev/60-tiltscroll.rules '$(DESTDIR)$(UDEVRULESDIR)/60-tiltscroll.rules'
	$(INSTALL) -m 0644 dbus/io.github.tiltscroll.TiltScroll1.conf '$(DESTDIR)$(DBUSPOLICYDIR)/io.github.tiltscroll.TiltScroll1.conf'
	$(INSTALL) -m 0644 dbus/io.github.tiltscroll.TiltScroll1.xml '$(DESTDIR)$(DBUSINTERFACEDIR)/io.github.tiltscroll.TiltScroll1.xml'
	$(INSTALL) -m 0644 polkit/io.github.tiltscroll.policy '$(DESTDIR)$(POLKITACTIONDIR)/io.github.tiltscroll.policy'
	$(INSTALL) -m 0644 man/tiltscrolld.8 '$(DESTDIR)$(MANDIR)/man8/tiltscrolld.8'
	$(INSTALL) -m 0644 man/tiltscroll.conf.5 '$(DESTDIR)$(MANDIR)/man5/tiltscroll.conf.5'
	$(INSTALL) -m 0644 conf/tiltscroll.conf '$(DESTDIR)$(DOCDIR)/tiltscroll.conf.example'
	$(INSTALL) -d '$(DESTDIR)$(GNOME_EXTENSION)/icons'
	for f in $(GNOME_EXTENSION_FILES); do $(INSTALL) -m 0644 "gnome-shell/$$f" '$(DESTDIR)$(GNOME_EXTENSION)/'"$$f" || exit 1; done
	@if [ -e '$(DESTDIR)$(SYSCONFDIR)/tiltscroll.conf' ]; then \
		echo "keeping the existing $(SYSCONFDIR)/tiltscroll.conf (the new example is $(DOCDIR)/tiltscroll.conf.example)"; \
	else \
		echo "$(INSTALL) -m 0644 conf/tiltscroll.conf '$(DESTDIR)$(SYSCONFDIR)/tiltscroll.conf'"; \
		$(INSTALL) -m 0644 conf/tiltscroll.conf '$(DESTDIR)$(SYSCONFDIR)/tiltscroll.conf'; \
	fi
	@if [ -z '$(DESTDIR)' ]; then \
		echo "now run: systemctl daemon-reload && systemctl reload dbus && udevadm control --reload && udevadm trigger --subsystem-match=iio"; \
	fi

uninstall:
	rm -f '$(DESTDIR)$(BINDIR)/tiltscrolld' '$(DESTDIR)$(UNITDIR)/tiltscrolld.service' \
		'$(DESTDIR)$(UDEVRULESDIR)/60-tiltscroll.rules' '$(DESTDIR)$(MANDIR)/man8/tiltscrolld.8' \
		'$(DESTDIR)$(MANDIR)/man5/tiltscroll.conf.5' '$(DESTDIR)$(DOCDIR)/tiltscroll.conf.example' \
		'$(DESTDIR)$(DBUSPOLICYDIR)/io.github.tiltscroll.TiltScroll1.conf' \
		'$(DESTDIR)$(DBUSINTERFACEDIR)/io.github.tiltscroll.TiltScroll1.xml' \
		'$(DESTDIR)$(POLKITACTIONDIR)/io.github.tiltscroll.policy'
	-rmdir '$(DESTDIR)$(DOCDIR)' 2>/dev/null
	for f in $(GNOME_EXTENSION_FILES); do rm -f '$(DESTDIR)$(GNOME_EXTENSION)/'"$$f"; done
	-rmdir '$(DESTDIR)$(GNOME_EXTENSION)/icons' '$(DESTDIR)$(GNOME_EXTENSION)' 2>/dev/null
	@if cmp -s conf/tiltscroll.conf '$(DESTDIR)$(SYSCONFDIR)/tiltscroll.conf'; then \
		echo "rm -f '$(DESTDIR)$(SYSCONFDIR)/tiltscroll.conf'"; rm -f '$(DESTDIR)$(SYSCONFDIR)/tiltscroll.conf'; \
	elif [ -e '$(DESTDIR)$(SYSCONFDIR)/tiltscroll.conf' ]; then \
		echo "keeping $(SYSCONFDIR)/tiltscroll.conf: it was changed"; \
	fi
