# tiltscroll: build, test and install.
#
#   make deps       install the Debian packages building and running the daemon need (sudo when not root)
#   make run        build and run the daemon (or its demo where no accelerometer exists)
#   make test-deps  install those and every package the tests need besides
#   make check      run every test: unit, umockdev integration, service, real kernel under QEMU
#   make bench-deps install those and what Benchmarks/ needs besides
#   make install    install into $(DESTDIR)$(PREFIX) (see the install section below)
#   make gnome-extension-zip  the GNOME Shell extension as extensions.gnome.org takes it
#
# The packages: building's are debian/control's Build-Depends (tools/build-deps),
# the suites' the rows of tools/deps.table (see tools/install-deps).

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
SWIFT_BUILD_FLAGS ?=
RELEASE_FLAGS = -c release --static-swift-stdlib $(SWIFT_BUILD_FLAGS)
BIN = .build/release/tiltscrolld
CTL = .build/release/tiltscrollctl

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
	tools/run-daemon $(BIN) $(CTL)

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
GNOME_EXTENSION_UUID = tiltscroll@tiltscroll.github.io
GNOME_EXTENSION = $(GNOMESHELLEXTENSIONDIR)/$(GNOME_EXTENSION_UUID)
# It comes in two builds of one source (gnome-shell/): 43, for GNOME Shell 43
# (Debian 12), which loads extensions with imports.*, and 45, for GNOME Shell
# 45 to 49, which load ES modules. The shared modules are ES modules; the 45
# build installs them as they are, the 43 build as gnome-shell/legacy-imports.sed
# turns them. Each build has its own entry point (extension-43.js,
# extension-45.js) and shell-version list.
#
# GNOME_EXTENSION_FLAVOUR (43 or 45) says which build install installs; auto
# (the default) takes the build for the GNOME Shell package installed here
# (up to 44: 43, from 45 on: 45) and 45 where there is none (or no dpkg:
# Fedora 41 and later ship 47 and later). dpkg is asked rather than
# `gnome-shell --version` because every program the Makefile runs is one that
# `make deps` installs (tools/deps.table), and building the daemon must not
# bring GNOME Shell. A package passes it (Debian 13: GNOME_EXTENSION_FLAVOUR=45).
GNOME_EXTENSION_FLAVOUR ?= auto
GNOME_EXTENSION_AUTO = $(shell major=$$(dpkg-query -W -f '$${db:Status-Abbrev} $${Version}' gnome-shell 2>/dev/null | \
	sed -n 's/^ii *\([0-9][0-9]*\)\..*/\1/p'); if [ -n "$$major" ] && [ "$$major" -lt 45 ]; then echo 43; else echo 45; fi)
GNOME_EXTENSION_BUILD = $(if $(filter auto,$(GNOME_EXTENSION_FLAVOUR)),$(GNOME_EXTENSION_AUTO),$(GNOME_EXTENSION_FLAVOUR))
GNOME_EXTENSION_SHELL_VERSIONS_43 = ["43"]
GNOME_EXTENSION_SHELL_VERSIONS_45 = ["45", "46", "47", "48", "49"]
GNOME_EXTENSION_MODULES = indicator.js toggle.js service.js notifier.js errors.js sensitivity.js shellVersion.js
GNOME_EXTENSION_FILES = metadata.json extension.js $(GNOME_EXTENSION_MODULES) \
	io.github.tiltscroll.TiltScroll1.xml icons/tiltscroll-symbolic.svg
# make gnome-extension-zip: the zip to upload to extensions.gnome.org, the 45
# build unless GNOME_EXTENSION_FLAVOUR=43 is given (a build per upload: the
# site offers each GNOME Shell the upload whose shell-version names it).
GNOME_EXTENSION_ZIP_FLAVOUR = $(if $(filter 43 45,$(GNOME_EXTENSION_FLAVOUR)),$(GNOME_EXTENSION_FLAVOUR),45)
GNOME_EXTENSION_ZIP_STAGE = .build/gnome-extension-$(GNOME_EXTENSION_ZIP_FLAVOUR)
GNOME_EXTENSION_ZIP = $(abspath $(GNOME_EXTENSION_ZIP_STAGE))/$(GNOME_EXTENSION_UUID).shell-extension.zip

# The Plasma 6 applet (plasma/), a KPackage that plasmashell finds in every
# $XDG_DATA_DIRS/plasma/plasmoids, /usr/local/share's included. Installed
# with the rest where Plasma 6 is: where the QML module the applet talks to
# the system bus with (org.kde.plasma.workspace.dbus, Plasma 6's
# plasma-workspace) is in one of the distributions' Qt 6 QML directories.
# PLASMA=yes installs it anyway (a package build, where Plasma is not
# installed), PLASMA=no never. Translations: plasma/po/LANG.po (or those of
# PLASMA_PO_DIR), compiled with msgfmt into the package's contents/locale,
# where Plasma looks for the applet's catalog (plasma_applet_ID).
PLASMA_WORKSPACE_DBUS_QMLDIR = $(wildcard /usr/lib/*/qt6/qml/org/kde/plasma/workspace/dbus/qmldir \
	/usr/lib/qt6/qml/org/kde/plasma/workspace/dbus/qmldir /usr/lib64/qt6/qml/org/kde/plasma/workspace/dbus/qmldir)
PLASMA ?= $(if $(PLASMA_WORKSPACE_DBUS_QMLDIR),yes,no)
PLASMOIDDIR ?= $(PREFIX)/share/plasma/plasmoids
PLASMA_APPLET_ID = io.github.tiltscroll
PLASMA_APPLET = $(PLASMOIDDIR)/$(PLASMA_APPLET_ID)
PLASMA_APPLET_FILES = metadata.json contents/ui/main.qml contents/ui/CompactRepresentation.qml \
	contents/ui/FullRepresentation.qml contents/ui/TiltScrollService.qml \
	contents/code/sensitivity.mjs contents/icons/tiltscroll-symbolic.svg
PLASMA_CATALOG = plasma_applet_$(PLASMA_APPLET_ID)
PLASMA_PO_DIR ?= plasma/po
PLASMA_LANGUAGES = $(basename $(notdir $(wildcard $(PLASMA_PO_DIR)/*.po)))

EXECSTART = $(BINDIR)/tiltscrolld$(if $(filter-out /etc /etc/,$(SYSCONFDIR)), --config $(SYSCONFDIR)/tiltscroll.conf)

.PHONY: install uninstall install-gnome-extension gnome-extension-zip install-plasma uninstall-plasma plasma-pot
install: $(if $(filter yes,$(PLASMA)),install-plasma)
	@test -x '$(BIN)' || { echo "$(BIN) is missing: run 'make release' first (as yourself, not root), or pass BIN=path" >&2; exit 1; }
	@test -x '$(CTL)' || { echo "$(CTL) is missing: run 'make release' first (as yourself, not root), or pass CTL=path" >&2; exit 1; }
	$(INSTALL) -d '$(DESTDIR)$(BINDIR)' '$(DESTDIR)$(UNITDIR)' '$(DESTDIR)$(UDEVRULESDIR)' \
		'$(DESTDIR)$(MANDIR)/man1' '$(DESTDIR)$(MANDIR)/man8' '$(DESTDIR)$(MANDIR)/man5' '$(DESTDIR)$(DOCDIR)' '$(DESTDIR)$(SYSCONFDIR)' \
		'$(DESTDIR)$(DBUSPOLICYDIR)' '$(DESTDIR)$(POLKITACTIONDIR)' '$(DESTDIR)$(DBUSINTERFACEDIR)'
	$(INSTALL) -m 0755 '$(BIN)' '$(DESTDIR)$(BINDIR)/tiltscrolld'
	$(INSTALL) -m 0755 '$(CTL)' '$(DESTDIR)$(BINDIR)/tiltscrollctl'
	sed -e 's|^ExecStart=.*|ExecStart=$(EXECSTART)|' systemd/tiltscrolld.service > '$(DESTDIR)$(UNITDIR)/tiltscrolld.service.tmp'
	chmod 0644 '$(DESTDIR)$(UNITDIR)/tiltscrolld.service.tmp'
	mv -f '$(DESTDIR)$(UNITDIR)/tiltscrolld.service.tmp' '$(DESTDIR)$(UNITDIR)/tiltscrolld.service'
	$(INSTALL) -m 0644 udev/60-tiltscroll.rules '$(DESTDIR)$(UDEVRULESDIR)/60-tiltscroll.rules'
	$(INSTALL) -m 0644 dbus/io.github.tiltscroll.TiltScroll1.conf '$(DESTDIR)$(DBUSPOLICYDIR)/io.github.tiltscroll.TiltScroll1.conf'
	$(INSTALL) -m 0644 dbus/io.github.tiltscroll.TiltScroll1.xml '$(DESTDIR)$(DBUSINTERFACEDIR)/io.github.tiltscroll.TiltScroll1.xml'
	$(INSTALL) -m 0644 polkit/io.github.tiltscroll.policy '$(DESTDIR)$(POLKITACTIONDIR)/io.github.tiltscroll.policy'
	$(INSTALL) -m 0644 man/tiltscrolld.8 '$(DESTDIR)$(MANDIR)/man8/tiltscrolld.8'
	$(INSTALL) -m 0644 man/tiltscrollctl.1 '$(DESTDIR)$(MANDIR)/man1/tiltscrollctl.1'
	$(INSTALL) -m 0644 man/tiltscroll.conf.5 '$(DESTDIR)$(MANDIR)/man5/tiltscroll.conf.5'
	$(INSTALL) -m 0644 conf/tiltscroll.conf '$(DESTDIR)$(DOCDIR)/tiltscroll.conf.example'
	$(MAKE) --no-print-directory install-gnome-extension GNOME_EXTENSION_FLAVOUR=$(GNOME_EXTENSION_BUILD)
	@if [ -e '$(DESTDIR)$(SYSCONFDIR)/tiltscroll.conf' ]; then \
		echo "keeping the existing $(SYSCONFDIR)/tiltscroll.conf (the new example is $(DOCDIR)/tiltscroll.conf.example)"; \
	else \
		echo "$(INSTALL) -m 0644 conf/tiltscroll.conf '$(DESTDIR)$(SYSCONFDIR)/tiltscroll.conf'"; \
		$(INSTALL) -m 0644 conf/tiltscroll.conf '$(DESTDIR)$(SYSCONFDIR)/tiltscroll.conf'; \
	fi
	@if [ -z '$(DESTDIR)' ]; then \
		echo "now run: systemctl daemon-reload && systemctl reload dbus && udevadm control --reload && udevadm trigger --subsystem-match=iio"; \
	fi

uninstall: uninstall-plasma
	rm -f '$(DESTDIR)$(BINDIR)/tiltscrolld' '$(DESTDIR)$(BINDIR)/tiltscrollctl' '$(DESTDIR)$(UNITDIR)/tiltscrolld.service' \
		'$(DESTDIR)$(UDEVRULESDIR)/60-tiltscroll.rules' '$(DESTDIR)$(MANDIR)/man8/tiltscrolld.8' \
		'$(DESTDIR)$(MANDIR)/man5/tiltscroll.conf.5' '$(DESTDIR)$(MANDIR)/man1/tiltscrollctl.1' \
		'$(DESTDIR)$(DOCDIR)/tiltscroll.conf.example' \
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

# The extension's build GNOME_EXTENSION_FLAVOUR names, into $(DESTDIR)$(GNOME_EXTENSION).
install-gnome-extension:
	@case '$(GNOME_EXTENSION_FLAVOUR)' in 43|45) ;; \
		*) echo "GNOME_EXTENSION_FLAVOUR must be 43 or 45 (or auto for install), not '$(GNOME_EXTENSION_FLAVOUR)'" >&2; exit 1 ;; esac
	$(INSTALL) -d '$(DESTDIR)$(GNOME_EXTENSION)/icons'
	sed -e 's|@SHELL_VERSIONS@|$(GNOME_EXTENSION_SHELL_VERSIONS_$(GNOME_EXTENSION_FLAVOUR))|' gnome-shell/metadata.json.in > '$(DESTDIR)$(GNOME_EXTENSION)/metadata.json'
	$(INSTALL) -m 0644 gnome-shell/extension-$(GNOME_EXTENSION_FLAVOUR).js '$(DESTDIR)$(GNOME_EXTENSION)/extension.js'
	for f in $(GNOME_EXTENSION_MODULES); do \
		if [ '$(GNOME_EXTENSION_FLAVOUR)' = 43 ]; then \
			sed -E -f gnome-shell/legacy-imports.sed "gnome-shell/$$f" > '$(DESTDIR)$(GNOME_EXTENSION)/'"$$f" || \
				{ rm -f '$(DESTDIR)$(GNOME_EXTENSION)/'"$$f"; echo "gnome-shell/$$f: not translated for GNOME Shell 43" >&2; exit 1; }; \
		else \
			$(INSTALL) -m 0644 "gnome-shell/$$f" '$(DESTDIR)$(GNOME_EXTENSION)/'"$$f" || exit 1; \
		fi; \
	done
	chmod 0644 '$(DESTDIR)$(GNOME_EXTENSION)/'*.js '$(DESTDIR)$(GNOME_EXTENSION)/metadata.json'
	$(INSTALL) -m 0644 gnome-shell/io.github.tiltscroll.TiltScroll1.xml '$(DESTDIR)$(GNOME_EXTENSION)/io.github.tiltscroll.TiltScroll1.xml'
	$(INSTALL) -m 0644 gnome-shell/icons/tiltscroll-symbolic.svg '$(DESTDIR)$(GNOME_EXTENSION)/icons/tiltscroll-symbolic.svg'

# The zip for extensions.gnome.org: the build's files at its top, as the site
# and `gnome-extensions install` expect.
gnome-extension-zip:
	rm -rf '$(GNOME_EXTENSION_ZIP_STAGE)'
	$(MAKE) --no-print-directory install-gnome-extension DESTDIR= \
		GNOME_EXTENSION='$(abspath $(GNOME_EXTENSION_ZIP_STAGE))/$(GNOME_EXTENSION_UUID)' \
		GNOME_EXTENSION_FLAVOUR=$(GNOME_EXTENSION_ZIP_FLAVOUR)
	cd '$(GNOME_EXTENSION_ZIP_STAGE)/$(GNOME_EXTENSION_UUID)' && zip -q -X -r '$(GNOME_EXTENSION_ZIP)' $(GNOME_EXTENSION_FILES)
	@echo '$(GNOME_EXTENSION_ZIP): for GNOME Shell $(GNOME_EXTENSION_SHELL_VERSIONS_$(GNOME_EXTENSION_ZIP_FLAVOUR))'

# contents/code/sensitivity.mjs and the icon are symbolic links to the GNOME
# Shell extension's files (one scale, one icon for both desktops): install
# copies what they point to.
install-plasma:
	$(INSTALL) -d '$(DESTDIR)$(PLASMA_APPLET)/contents/ui' '$(DESTDIR)$(PLASMA_APPLET)/contents/code' \
		'$(DESTDIR)$(PLASMA_APPLET)/contents/icons'
	for f in $(PLASMA_APPLET_FILES); do $(INSTALL) -m 0644 "plasma/$$f" '$(DESTDIR)$(PLASMA_APPLET)/'"$$f" || exit 1; done
	for lang in $(PLASMA_LANGUAGES); do \
		$(INSTALL) -d '$(DESTDIR)$(PLASMA_APPLET)/contents/locale/'"$$lang"/LC_MESSAGES && \
		msgfmt --check -o '$(DESTDIR)$(PLASMA_APPLET)/contents/locale/'"$$lang"'/LC_MESSAGES/$(PLASMA_CATALOG).mo' "$(PLASMA_PO_DIR)/$$lang.po" || exit 1; \
	done

# Removes the applet whether or not Plasma is here (it may have gone since).
uninstall-plasma:
	for f in $(PLASMA_APPLET_FILES); do rm -f '$(DESTDIR)$(PLASMA_APPLET)/'"$$f"; done
	rm -f '$(DESTDIR)$(PLASMA_APPLET)/contents/locale/'*'/LC_MESSAGES/$(PLASMA_CATALOG).mo'
	-rmdir '$(DESTDIR)$(PLASMA_APPLET)/contents/locale/'*/LC_MESSAGES '$(DESTDIR)$(PLASMA_APPLET)/contents/locale/'* 2>/dev/null
	-rmdir '$(DESTDIR)$(PLASMA_APPLET)/contents/locale' '$(DESTDIR)$(PLASMA_APPLET)/contents/ui' \
		'$(DESTDIR)$(PLASMA_APPLET)/contents/code' '$(DESTDIR)$(PLASMA_APPLET)/contents/icons' \
		'$(DESTDIR)$(PLASMA_APPLET)/contents' '$(DESTDIR)$(PLASMA_APPLET)' 2>/dev/null

# The applet's translation template, from the i18n calls of its QML, with
# the keywords KDE's own extraction uses. Translators start from it:
# msginit -i plasma/po/$(PLASMA_CATALOG).pot -l LANG -o plasma/po/LANG.po
# PLASMA_POT=path writes it elsewhere (the Plasma suite compares the two).
PLASMA_POT ?= $(CURDIR)/plasma/po/$(PLASMA_CATALOG).pot
plasma-pot:
	cd plasma && xgettext --from-code=UTF-8 -C --kde -ci18n -ki18n:1 -ki18nc:1c,2 -ki18np:1,2 -ki18ncp:1c,2,3 \
		--package-name=tiltscroll --sort-by-file \
		-o '$(PLASMA_POT)' $(filter contents/ui/%,$(PLASMA_APPLET_FILES))
