# shellcheck shell=bash
# systemd-udevd of the host, running in the guest's chroot. guest/enter set
# SYSTEMD_IGNORE_CHROOT=1 (without it udevd and udevadm refuse to act in a
# chroot, and udevadm still exits 0) and SYSTEMD_PAGER=cat.

UDEV_RULES_DIR=/run/udev/rules.d

# udev_install_project_rules: the project's udev/*.rules, as a package would
# install them (rules in /run/udev/rules.d are read like those in /etc).
udev_install_project_rules() {
	local rule
	mkdir -p "$UDEV_RULES_DIR"
	for rule in "$PROJECT_DIR"/udev/*.rules; do
		[ -e "$rule" ] || continue
		cp "$rule" "$UDEV_RULES_DIR/"
		log "installed udev rule $(basename "$rule")"
	done
}

# udev_add_rule NAME: a rules file from stdin.
udev_add_rule() {
	mkdir -p "$UDEV_RULES_DIR"
	cat >"$UDEV_RULES_DIR/$1"
}

# udevd_start: run udevd in the background (UDEVD_PID), replay the add
# events of everything that exists already, and wait until they are handled.
udevd_start() {
	udevd_run
	udevadm trigger --action=add --type=subsystems
	udevadm trigger --action=add --type=devices
	udev_settle
}

# udevd_run: run udevd in the background (UDEVD_PID) without replaying what
# exists: enough for a libudev monitor opened from now on to hear devices
# added later, and seconds cheaper under TCG than udevd_start (udev's
# database then knows nothing of the devices that were there before).
udevd_run() {
	mkdir -p /run/udev
	/lib/systemd/systemd-udevd >"$RUN_DIR/udevd.log" 2>&1 &
	UDEVD_PID=$!
	diag_file "$RUN_DIR/udevd.log"
	wait_until 10 "udevd's control socket" test -S /run/udev/control
}

udev_settle() {
	udevadm settle --timeout=30 || fail "udevadm settle timed out"
}

# udev_property SYSFS_PATH NAME: a property of the device in udev's database.
udev_property() {
	udevadm info --query=property --path="$1" | sed -n "s/^$2=//p"
}

# udevd_stop: ask udevd to exit (SIGTERM) and wait until it has.
# Not `udevadm control --exit`: udevd takes a control request only with
# its sender's credentials (SCM_CREDENTIALS, uid 0), and under TCG with
# linux 6.1.192 a request now and then arrives without them: udevd logs
# "Invalid sender uid 65534, ignoring message" and runs on (coexistence,
# hinge and tablet-mode failed so). A signal carries no such check.
udevd_stop() {
	kill -TERM "$UDEVD_PID" || fail "udevd is not running"
	wait_exit "$UDEVD_PID" 10
	[ "$EXIT_STATUS" = 0 ] || fail "udevd's exit status: $EXIT_STATUS"
}
