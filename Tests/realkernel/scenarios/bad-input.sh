#!/bin/bash
# bad-input: the daemon facing bad input on the real device.
#   - Configuration files with errors: a non-zero exit status, the offending
#     line named on stderr, and no input device created meanwhile.
#   - The driver unbound while the daemon is scrolling (every sysfs read now
#     fails): scrolling stops at once and stays stopped, the daemon keeps
#     running and says so in its status (waiting for its sensor, naming the
#     failure), and SIGTERM still stops it cleanly.
# timeout: 240
set -eu
# shellcheck source=lib.sh
. "$HARNESS_DIR/lib.sh"

# expect_config_error NAME LINE: run the daemon on config NAME (already
# written); it must exit non-zero by itself, naming LINE on stderr.
expect_config_error() {
	local config="$CONFIG_DIR/$1.conf" line="$2" err="$RUN_DIR/config-$1.err" pid
	STATE_DIRECTORY=/var/lib/tiltscroll "$TILTSCROLLD" --config "$config" >/dev/null 2>"$err" &
	pid=$!
	wait_exit "$pid" 20
	[ "$EXIT_STATUS" != timeout ] || {
		kill -TERM "$pid"
		fail "$1: the daemon kept running with an invalid configuration"
	}
	[ "$EXIT_STATUS" -ne 0 ] || fail "$1: exit status 0 for an invalid configuration"
	[ "$EXIT_STATUS" -lt 128 ] || fail "$1: the daemon died of signal $((EXIT_STATUS - 128))"
	sed 's/^/    stderr: /' "$err"
	# "line 7", "line: 7", or "file.conf:7:"; not any 7 in the text.
	grep -Eq "(line[^0-9]{0,3}$line([^0-9]|$)|:$line([^0-9]|$))" "$err" ||
		fail "$1: stderr does not name line $line"
	if "$HELPERS_DIR/evread" wait --timeout 0.2 >/dev/null 2>&1; then
		fail "$1: an input device exists although the configuration was rejected"
	fi
	log "$1: exit status $EXIT_STATUS, line $line named"
}

daemon_require
stub_load kxcjk
stub_add kxcjk >/dev/null
set_pose kxcjk "$NEUTRAL"
modprobe uinput
modprobe evdev

step "configuration errors name their line"
daemon_config bad-number >/dev/null <<EOF
# tiltscroll test: a value that is not a number
[Device]
Name=kxcj91008

[Scroll]
DeadZone=4
Speed=fast
EOF
expect_config_error bad-number 7
daemon_config unknown-key >/dev/null <<EOF
[Device]
Name=kxcj91008
[Scroll]
SpeedFactor=2
EOF
expect_config_error unknown-key 4
daemon_config unknown-section >/dev/null <<EOF
[Device]
Name=kxcj91008
[Scrolling]
Speed=12
EOF
expect_config_error unknown-section 3
pass "three invalid configurations rejected, each naming its line"

step "the driver goes away while the daemon scrolls"
daemon_start_scrolling unbind <<EOF
[Device]
Name=kxcj91008
Mode=poll

[Activation]
When=always
EOF
expect_status 10 "the first sample: the reading pose is neutral" "$SCROLLING"
hold kxcjk $((NEUTRAL + 20)) 2
expect_scroll "20 degrees away, before the unbind" - "$(fadd "$HOLD_FROM" 1)" "$HOLD_TO" >/dev/null
client="$(stub_client kxcjk)"
driver="$(basename "$(readlink "/sys/bus/i2c/devices/$client/driver")")"
err_lines="$(wc -l <"$RUN_DIR/daemon.err")"
unbound="$(now)"
echo "$client" >"/sys/bus/i2c/drivers/$driver/unbind"
log "unbound $client from $driver while scrolling; the chip still reads 20 degrees away"
! iio_exists kxcj91008 || fail "the IIO device is still there after unbinding"
expect_status 5 "the lost sensor" "$WAITING_FOR_SENSOR"
# Two seconds more: nothing scrolls on its own, and the daemon stays (behaviour).
sleep 2
daemon_alive || fail "the daemon exited when the sensor's reads started failing"
expect_silence "from 0.5 s after the unbind" "$(fadd "$unbound" 0.5)" "$(now)"
log "the daemon reported on stderr:"
tail -n "+$((err_lines + 1))" "$RUN_DIR/daemon.err" | head -n 10 | sed 's/^/    /'

step "SIGTERM without a sensor"
daemon_stop
frames_stop
frames_check_shape
echo "$client" >"/sys/bus/i2c/drivers/$driver/bind"
iio_exists kxcj91008 || fail "rebinding the driver did not bring the sensor back"
pass "no scroll without a sensor, the daemon kept running and stopped cleanly"
