# shellcheck shell=bash
# Starting, signalling and stopping the daemon under test: the unmodified
# binary the project builds ($TILTSCROLLD), run like a service would run it
# (state directory in a tmpfs, logs on stderr into $RUN_DIR/daemon.err),
# and what it reports.
#
# There is no systemd in the guest: the scenario holds the other end of the
# daemon's notify socket (helpers/notify-listen), so every STATUS= it sends
# (the line `systemctl status` would show: the sensor, the state and why)
# lands in $RUN_DIR/notify.txt, and scenarios wait for the status they
# expect (expect_status) instead of sleeping. The daemon pushes each change
# itself: waiting never wakes it, which the wake-up counts rely on.

CONFIG_DIR=/run/tiltscroll-test/config
NOTIFY_SOCKET_PATH=/run/tiltscroll-test/notify
NOTIFY_LOG="${RUN_DIR:-/tmp}/notify.txt"
# The status of a daemon that captures and has read its first sample: it
# names the intent ("; holding: in a hand, tilt scrolls"), and the pose it
# was in is the neutral one.
# shellcheck disable=SC2034 # for the scenarios
SCROLLING='^Scrolling with .* \([a-z]+ capture\); [a-z]+: '
# Switched off, or not wanted by [Activation].
# shellcheck disable=SC2034 # for the scenarios
SCROLLING_OFF='^Scrolling off: '
# Wanted, but no sensor can be read (it failed, or went away).
# shellcheck disable=SC2034 # for the scenarios
WAITING_FOR_SENSOR='(; trying again|^Waiting for an accelerometer)$'

# system_bus_start [--policy]: a system D-Bus in the guest (dbus-daemon
# --system), its log in $RUN_DIR/dbus.log and its process $DBUS_PID; with
# --policy the project's bus policy is installed first, so that the daemon
# may own its name. Returns once the bus's socket exists.
system_bus_start() {
	if [ "${1:-}" = --policy ]; then
		mkdir -p /etc/dbus-1/system.d
		cp "$PROJECT_DIR/dbus/io.github.tiltscroll.TiltScroll1.conf" /etc/dbus-1/system.d/
	fi
	mkdir -p /run/dbus
	dbus-daemon --system --nofork --nopidfile >"$RUN_DIR/dbus.log" 2>&1 &
	# shellcheck disable=SC2034 # for the scenarios that stop it (sensorproxy_stop)
	DBUS_PID=$!
	diag_file "$RUN_DIR/dbus.log"
	wait_until 10 "the system bus socket" test -S /run/dbus/system_bus_socket
}

# daemon_config NAME: write the configuration on stdin, print its path.
daemon_config() {
	mkdir -p "$CONFIG_DIR"
	cat >"$CONFIG_DIR/$1.conf"
	echo "$CONFIG_DIR/$1.conf"
}

# daemon_start_scrolling NAME: the configuration on stdin (saved as
# NAME.conf); starts evread and the daemon, then waits for the daemon's
# uinput device and for evread to have opened it.
daemon_start_scrolling() {
	local config
	config="$(daemon_config "$1")"
	frames_start
	daemon_start "$config"
	daemon_wait_device
	frames_wait_ready
}

daemon_require() {
	[ -x "$TILTSCROLLD" ] || fail "no daemon binary at $TILTSCROLLD (build it with 'make release', or set TILTSCROLLD)"
}

# daemon_start CONFIG: start tiltscrolld in the background (DAEMON_PID),
# its notifications to the scenario's listener.
daemon_start() {
	daemon_require
	modprobe uinput
	modprobe evdev
	daemon_notify_listen
	log "starting $TILTSCROLLD --config $1 --verbose"
	sed 's/^/    /' "$1"
	# What it notifies from here on is this daemon's.
	DAEMON_NOTIFY_FROM="$(wc -l <"$NOTIFY_LOG")"
	NOTIFY_SOCKET="$NOTIFY_SOCKET_PATH" STATE_DIRECTORY=/var/lib/tiltscroll "$TILTSCROLLD" --config "$1" --verbose \
		>>"$RUN_DIR/daemon.out" 2>>"$RUN_DIR/daemon.err" &
	DAEMON_PID=$!
	diag_file "$RUN_DIR/daemon.err"
}

# daemon_notify_listen: the listener on the notify socket, once per scenario.
daemon_notify_listen() {
	[ -z "${NOTIFY_PID:-}" ] || return 0
	mkdir -p "$(dirname "$NOTIFY_SOCKET_PATH")"
	: >>"$NOTIFY_LOG"
	"$HELPERS_DIR/notify-listen" "$NOTIFY_SOCKET_PATH" >>"$NOTIFY_LOG" 2>>"$RUN_DIR/notify-listen.err" &
	NOTIFY_PID=$!
	diag_file "$NOTIFY_LOG"
	wait_until 10 "the notify socket" test -S "$NOTIFY_SOCKET_PATH"
}

# daemon_status: the last status the running daemon sent (empty before its first).
daemon_status() {
	tail -n "+$((${DAEMON_NOTIFY_FROM:-0} + 1))" "$NOTIFY_LOG" | sed -n 's/^STATUS=//p' | tail -n 1
}

# daemon_status_matches ERE: the last status matches the extended regular expression.
daemon_status_matches() {
	[[ "$(daemon_status)" =~ $1 ]]
}

# expect_status SECONDS WHAT ERE: the daemon's status must come to match
# ERE within SECONDS (it fails early if the daemon exits); logs it.
expect_status() {
	local limit="$1" what="$2" pattern="$3" deadline
	deadline=$((${EPOCHREALTIME/./} + $(usec "$limit")))
	until daemon_status_matches "$pattern"; do
		daemon_alive || fail "$what: the daemon exited; its last status: '$(daemon_status)'"
		[ "${EPOCHREALTIME/./}" -le "$deadline" ] ||
			fail "$what: the status is '$(daemon_status)' after ${limit}s, not /$pattern/"
		sleep 0.05
	done
	log "$what: status '$(daemon_status)'"
}

# ctl COMMAND...: the client, tiltscrollctl. There is no system bus in the
# guest: toggle and calibrate reach the daemon as signals (its PID file).
ctl() {
	[ -x "$TILTSCROLLCTL" ] || fail "no client binary at $TILTSCROLLCTL (build it with 'make release', or set TILTSCROLLCTL)"
	"$TILTSCROLLCTL" "$@"
}

# daemon_sample_fd: the running daemon's descriptor its samples are read
# from and the system call that reads them ("FD pread64" polling, "FD read"
# buffered), for perf and strace filters.
daemon_sample_fd() {
	local fd target
	for fd in "/proc/$DAEMON_PID/fd/"*; do
		target="$(readlink "$fd" 2>/dev/null)" || continue
		case "$target" in
		*/in_accel_z_raw) echo "${fd##*/} pread64" && return 0 ;;
		/dev/iio:device*) echo "${fd##*/} read" && return 0 ;;
		esac
	done
	fail "no sample descriptor among the daemon's: $(ls -l "/proc/$DAEMON_PID/fd/")"
}

daemon_alive() {
	kill -0 "$DAEMON_PID" 2>/dev/null &&
		[ "$(awk '{ print $3 }' "/proc/$DAEMON_PID/stat" 2>/dev/null)" != Z ]
}

# daemon_wait_device: wait (30 s at most: a cold start reads the binary over
# 9p under TCG) for the daemon's uinput device and check it is a wheel and
# nothing else (evread caps). Fails early if the daemon dies first.
daemon_wait_device() {
	local limit=30 deadline
	deadline=$((${EPOCHREALTIME/./} + $(usec "$limit")))
	until "$HELPERS_DIR/evread" wait --timeout 0.5 >/dev/null 2>&1; do
		if ! daemon_alive; then
			wait_exit "$DAEMON_PID" 1
			fail "the daemon exited with status $EXIT_STATUS before creating its device"
		fi
		[ "${EPOCHREALTIME/./}" -le "$deadline" ] || fail "no 'tiltscroll' input device within ${limit}s"
	done
	"$HELPERS_DIR/evread" caps >"$RUN_DIR/caps.txt" 2>&1 || {
		cat "$RUN_DIR/caps.txt"
		fail "the daemon's input device has the wrong capabilities"
	}
	log "$(cat "$RUN_DIR/caps.txt")"
}

# daemon_pid_file: the daemon's PID file in /run/tiltscroll/ (the contract).
daemon_pid_file() {
	grep -lx "$DAEMON_PID" /run/tiltscroll/*.pid 2>/dev/null | head -n 1
}

# daemon_stop: SIGTERM; it must exit 0 within 10 s, its device and its PID
# file gone, having said STOPPING=1.
daemon_stop() {
	kill -TERM "$DAEMON_PID"
	wait_exit "$DAEMON_PID" 10
	[ "$EXIT_STATUS" = 0 ] || fail "the daemon's exit status after SIGTERM: $EXIT_STATUS"
	tail -n "+$((${DAEMON_NOTIFY_FROM:-0} + 1))" "$NOTIFY_LOG" | grep -qx STOPPING=1 ||
		fail "the daemon did not notify STOPPING=1"
	"$HELPERS_DIR/evread" gone --timeout 3 || fail "the daemon's input device outlived the daemon"
	[ -z "$(daemon_pid_file)" ] || fail "the PID file $(daemon_pid_file) outlived the daemon"
	log "the daemon exited 0 on SIGTERM; its device and PID file are gone"
}
