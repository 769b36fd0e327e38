#!/bin/bash
# hinge: tablet mode from the hinge angle (issue 25), the daemon on the
# fixture of hinge-sensors (lib/hinge.sh: kxcjk-1013 in the display and
# bmc150 in the base on i2c-stub, located through udev, no tablet-mode
# switch), udevd and a system bus running, [Activation] When=auto, both
# sensors held by one hand.
#   - Opened as a laptop at start: no "tiltscroll" device, its status
#     "Scrolling off: not in tablet mode (the hinge angle says laptop)";
#     tiltscrollctl status says TabletMode laptop from the hinge and names
#     the base's sensor; the daemon reads both sensors (their raw
#     attributes open), waking about twice a second (measured);
#   - folded flat (110 to 355 degrees in 1.5 s): the device within 3 s of
#     the fold's end, silent at the pose of that moment, 12 degrees away
#     from there scrolls; unfolded: the device gone within 3 s, laptop;
#   - switched off (tiltscrollctl disable): both sensors let go of, the
#     daemon asleep; on again: read again, laptop;
#   - the hinge held near vertical (the display on its side): folded into
#     a stand meanwhile, nothing changes for 4 s; turned level, the stand
#     is tablet mode: the device appears;
#   - PublishTabletMode=yes, a new daemon: libinput debug-events adds the
#     "tiltscroll tablet-mode switch" and sees it toggle to tablet mode on
#     the fold (SWITCH_TOGGLE tablet-mode state 1) and back on the unfold
#     (state 0); the daemon never opens its own switch as the machine's
#     (TabletModeSource stays "hinge"); SIGTERM removes it.
# The daemon's status (STATUS=) and the bus say when it has decided; the
# sleeps left are the behaviour under test.
# timeout: 300
set -eu
# shellcheck source=lib.sh
. "$HARNESS_DIR/lib.sh"

TILT=12 # degrees from the pose for a clear scroll (full speed at 25)
READING=35 # the display's pitch, held in a hand
LAPTOP='^Scrolling off: not in tablet mode \(the hinge angle says laptop\)$'
LIBINPUT_LOG="$RUN_DIR/libinput.txt"

# status_json: tiltscrollctl status --json (the client reads the bus).
status_json() {
	ctl status --json
}

# expect_bus WHAT TEXT...: tiltscrollctl status --json holds each TEXT.
expect_bus() {
	local what="$1" json text
	shift
	json="$(status_json)"
	for text in "$@"; do
		grep -qF -- "$text" <<<"$json" || fail "$what: the bus does not say $text: $json"
	done
	log "$what: $(grep -oE '"(TabletMode|TabletModeSource|BaseSensor)": ("[^"]*"|\[[^]]*\])' <<<"$json" | tr '\n' ' ')"
}

# holds_sensor DIR: the daemon has the sensor's raw attributes open.
holds_sensor() {
	daemon_has_open "$(realpath "$1")/in_accel_x_raw"
}

lets_go_of_base() {
	! holds_sensor "$HINGE_BASE_DIR"
}

# toggles STATE: how many times libinput saw the published switch go to
# STATE (1 tablet mode, 0 laptop mode).
toggles() {
	awk -v node="$switch_node" -v state="$1" '
		($1 == node || $1 == "-" node) && /SWITCH_TOGGLE/ && /tablet-mode/ && $NF == state { n++ }
		END { print n + 0 }' "$LIBINPUT_LOG"
}

toggled_at_least() {
	[ "$(toggles "$1")" -ge "$2" ]
}

# fold FROM TO: the lid turned from FROM to TO degrees over 1.5 s, the
# display held at the reading pose; FOLDED is when the turn ended.
fold() {
	hinge_sweep "$1" "$2" 1.5 "$READING"
	FOLDED="$(now)"
}

step "the fixture, udevd, a system bus with the project's policy"
hinge_start
system_bus_start --policy
driver_info "$HINGE_BASE"
base_iio="$DRV_IIO"
driver_info "$HINGE_DISPLAY"
display_iio="$DRV_IIO"
set_hinge 110 "$READING"

step "opened as a laptop: no device, both sensors read, the hinge says laptop"
config="$(daemon_config hinge <<EOF
[Activation]
When=auto
PauseWhenLidClosed=no
EOF
)"
frames_start
daemon_start "$config"
daemon_pid_wait
started="$(now)"
expect_status 15 "laptop at start" "$LAPTOP"
log "decided $(awk -v a="$(now)" -v b="$started" 'BEGIN { printf "%.2f", a - b }') s after the PID file"
expect_no_device "laptop at start"
wait_until 10 "the daemon on the bus" ctl status --json
expect_bus "laptop at start" '"TabletMode": "laptop"' '"TabletModeSource": "hinge"' "\"BaseSensor\": [\"$base_iio\""
expect_bus "the display's sensor scrolls" "\"Sensor\": [\"$display_iio\""
holds_sensor "$HINGE_BASE_DIR" || fail "laptop: the daemon does not read the base's sensor"
holds_sensor "$HINGE_DISPLAY_DIR" || fail "laptop: the daemon does not read the display's sensor"
before="$(daemon_wakeups)"
# A measurement window (the behaviour under test: how often it wakes).
sleep 5
after="$(daemon_wakeups)"
log "laptop, held in a hand: $((after - before)) wake-ups in 5 s"
[ $((after - before)) -le 20 ] || fail "laptop: $((after - before)) wake-ups in 5 s (2 pairs a second expected)"

step "folded flat: scrolling, the pose of that moment neutral"
fold 110 355
expect_device_within "folded" "$FOLDED" 3
frames_wait_ready_count 1
expect_status 5 "folded" "$SCROLLING"
expect_bus "folded" '"TabletMode": "tablet"' '"TabletModeSource": "hinge"'
sleep 1
expect_silence "folded, held at the reading pose" "$FOLDED" "$(now)"
set_hinge 355 $((READING + TILT))
from="$(now)"
sleep 2
expect_scroll "$TILT degrees away, folded" - "$(fadd "$from" 0.8)" "$(now)" >/dev/null
set_hinge 355 "$READING"

step "unfolded: scrolling stops"
fold 355 110
expect_device_gone_within "unfolded" "$FOLDED" 3
expect_status 5 "unfolded" "$LAPTOP"
expect_bus "unfolded" '"TabletMode": "laptop"'

step "switched off: both sensors let go of, asleep; on again, read again"
ctl disable
expect_status 5 "switched off" "${SCROLLING_OFF}switched off"
wait_until 5 "the base's sensor let go of" lets_go_of_base
holds_sensor "$HINGE_DISPLAY_DIR" && fail "switched off: the display's sensor is still read"
expect_bus "switched off" '"TabletMode": "unknown"' '"TabletModeSource": "hinge"'
expect_asleep "switched off" 2
ctl enable
expect_status 5 "on again" "$LAPTOP"
holds_sensor "$HINGE_BASE_DIR" || fail "on again: the base's sensor is not read"

step "the hinge held near vertical: folded into a stand, nothing changes"
set_hinge 110 "$READING" 85
# Turned on its side for a while first, as a hand would (the behaviour under test).
sleep 1.5
hinge_sweep 110 290 1.5 "$READING" 85
vertical_from="$(now)"
sleep 4
expect_no_device "folded with the hinge vertical"
expect_status 1 "folded with the hinge vertical" "$LAPTOP"
expect_silence "folded with the hinge vertical" "$vertical_from" "$(now)"
set_hinge 290 "$READING"
level="$(now)"
expect_device_within "turned level, a stand" "$level" 3
frames_wait_ready_count 2
expect_bus "a stand" '"TabletMode": "tablet"'
fold 290 110
expect_device_gone_within "a laptop again" "$FOLDED" 3
daemon_stop

step "PublishTabletMode=yes: libinput sees the switch follow the hinge"
config="$(daemon_config publish <<EOF
[Activation]
When=auto
PauseWhenLidClosed=no
PublishTabletMode=yes
EOF
)"
stdbuf -oL libinput debug-events >"$LIBINPUT_LOG" 2>&1 &
LIBINPUT_PID=$!
diag_file "$LIBINPUT_LOG"
daemon_start "$config"
daemon_pid_wait
expect_status 15 "published, laptop" "$LAPTOP"
wait_until 10 "libinput to add the tablet-mode switch" grep -q "DEVICE_ADDED.*tiltscroll tablet-mode switch" "$LIBINPUT_LOG"
switch_node="$(awk '/DEVICE_ADDED.*tiltscroll tablet-mode switch/ { sub(/^-/, "", $1); print $1; exit }' "$LIBINPUT_LOG")"
log "libinput: $(grep 'DEVICE_ADDED.*tiltscroll tablet-mode switch' "$LIBINPUT_LOG" | tr -s ' \t' ' ')"
[ "$(toggles 1)" = 0 ] || fail "libinput saw tablet mode while the machine is a laptop"
fold 110 355
wait_until 3 "libinput: tablet mode on" toggled_at_least 1 1
log "folded: libinput: $(grep "SWITCH_TOGGLE" "$LIBINPUT_LOG" | tail -n 1 | tr -s ' \t' ' ')"
expect_device_within "published, folded" "$FOLDED" 3
fold 355 110
wait_until 3 "libinput: tablet mode off" toggled_at_least 0 1
log "unfolded: libinput: $(grep "SWITCH_TOGGLE" "$LIBINPUT_LOG" | tail -n 1 | tr -s ' \t' ' ')"
expect_device_gone_within "published, unfolded" "$FOLDED" 3
expect_bus "published" '"TabletModeSource": "hinge"' '"TabletMode": "laptop"'
grep -q "Tablet-mode switch: " "$RUN_DIR/daemon.err" &&
	fail "the daemon took its own switch for the machine's: $(grep 'Tablet-mode switch: ' "$RUN_DIR/daemon.err")"
daemon_stop
wait_until 5 "libinput: the switch removed" grep -q "DEVICE_REMOVED.*tiltscroll tablet-mode switch" "$LIBINPUT_LOG"
kill -INT "$LIBINPUT_PID"
wait_exit "$LIBINPUT_PID" 5
frames_stop
frames_check_shape
udevd_stop
pass "the hinge angle tells tablet mode: folded it scrolls, unfolded it stops, vertical nothing changes, switched off both sensors go; published, libinput follows the switch"
