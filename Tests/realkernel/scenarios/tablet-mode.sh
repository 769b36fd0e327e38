#!/bin/bash
# tablet-mode: activation follows a SW_TABLET_MODE switch (uinput) with
# [Activation] When=auto, on kxcjk-1013 with udevd running.
#   - Started in laptop mode: no "tiltscroll" device, the sensor untouched
#     (sampling frequency as set before the start) and the daemon asleep (its
#     voluntary context switches stay put for 3 s: no reads, no timers).
#   - Tablet mode: the device appears; the pose at that moment is neutral
#     (silent from the switch on, a tilt from there scrolls); laptop mode:
#     the device goes, the sampling frequency is restored, the daemon sleeps.
#     Tablet mode again at another pose: that pose is the neutral one now.
#   - The switch unplugged: no switch means always on. A switch created while
#     the daemon runs (seen through udev) in laptop mode turns scrolling off,
#     and into tablet mode on again.
#   - When=manual: off at start (asleep); tiltscrollctl toggle turns it on
#     (a signal: the guest has no system bus), SIGUSR2 off (settings
#     restored, asleep); SIGTERM then exits cleanly.
# The daemon's status says when it has decided (lib/daemon.sh,
# expect_status); the sleeps left are the behaviour under test.
# Scrolling itself is checked after the first activation; later ones check
# the device, the silence at the pose of the moment, the sensor's settings
# and the daemon's sleep.
# timeout: 300
set -eu
# shellcheck source=lib.sh
. "$HARNESS_DIR/lib.sh"

TILT=12 # degrees from neutral for a clear scroll (full speed at 25)

stub_load kxcjk
dir="$(stub_add kxcjk)"
freq="$dir/in_accel_sampling_frequency"
# A slow rate the daemon (SampleRate=50) must raise, and put back.
echo 12.5 >"$freq"
slow="$(cat "$freq")" # as the driver prints it: 12.500000
before="$(iio_settings "$dir")"
log "kxcj91008 settings before the daemon: $(echo "$before" | tr '\n' ' ')"

# expect_released WHAT: the sensor's settings read as before the daemon.
expect_released() {
	local now_settings
	now_settings="$(iio_settings "$dir")"
	if [ "$now_settings" != "$before" ]; then
		diff <(echo "$before") <(echo "$now_settings") || true
		fail "$1: the sensor's settings are not as they were before the daemon"
	fi
	log "$1: sensor settings as before the daemon ($(echo "$now_settings" | tr '\n' ' '))"
}

# expect_held WHAT: the daemon changed the sampling frequency, so the sensor
# is in use (and expect_released above is seen to check something).
expect_held() {
	[ "$(cat "$freq")" != "$slow" ] || fail "$1: the sampling frequency is still $slow Hz: the daemon does not hold the sensor"
	log "$1: sampling frequency $(cat "$freq") Hz while scrolling"
}

# activate WHAT COUNT ACTION...: run ACTION (a switch flip, a toggle), then
# the device must appear within 3 s, evread must open it (for the COUNTth
# time) and the pose held at that moment must be silent for 1 s from the
# action on: the neutral pose is taken at activation, with no jump.
activate() {
	local what="$1" count="$2" t
	shift 2
	t="$(now)"
	"$@"
	expect_device_within "$what" "$t" 3
	frames_wait_ready_count "$count"
	expect_held "$what"
	# Held still for a second (the behaviour under test).
	sleep 1
	expect_silence "$what: held still from the activation on" "$t" "$(now)"
}

# deactivate WHAT ACTION...: the device must go within 2 s of the action
# (timed from its end: creating a switch takes a while under TCG), the
# sensor be released and the daemon asleep (for 1 s: polling at 50 Hz
# would wake it 50 times, any timer of 1 Hz or more at least once).
deactivate() {
	local what="$1" t
	shift
	"$@"
	t="$(now)"
	expect_device_gone_within "$what" "$t" 2
	expect_released "$what"
	expect_asleep "$what" 1
}

# scrolls_from PITCH: TILT degrees away from PITCH scrolls (negative), back
# at PITCH it is silent again.
scrolls_from() {
	hold kxcjk $(($1 + TILT)) 2
	expect_scroll "$TILT degrees away from $1" - "$(fadd "$HOLD_FROM" 0.8)" "$HOLD_TO" >/dev/null
	hold kxcjk "$1" 1.5
	expect_silence "back at $1, from 0.5 s on" "$(fadd "$HOLD_FROM" 0.5)" "$HOLD_TO"
}

step "udevd, a tablet-mode switch in laptop mode, then the daemon (When=auto)"
# Only for the daemon's udev monitor: nothing needs the database of what exists.
udevd_run
switch_start one 0
set_pose kxcjk "$NEUTRAL"
config="$(daemon_config auto <<EOF
[Device]
Name=kxcj91008

[Activation]
When=auto
EOF
)"
frames_start
daemon_start "$config"
daemon_pid_wait
expect_status 10 "laptop mode at start" "${SCROLLING_OFF}not in tablet mode"
expect_no_device "laptop mode at start"
expect_released "laptop mode at start"
expect_asleep "laptop mode at start" 3

step "tablet mode: the device appears, the pose of that moment is neutral"
# Moved while in laptop mode: the daemon did not see it.
set_pose kxcjk 45
activate "tablet mode at 45 degrees" 1 switch_set one 1
scrolls_from 45

step "laptop mode: the device goes, the sensor is released"
deactivate "laptop mode" switch_set one 0

step "tablet mode again, at another pose: the new pose is neutral"
set_pose kxcjk 20
# With the old neutral (45) kept, 20 degrees is 25 towards: full speed, not
# the silence activate checks.
activate "tablet mode at 20 degrees" 2 switch_set one 1
deactivate "laptop mode again" switch_set one 0

step "the switch goes away: without a switch, When=auto is always on"
activate "switch removed" 3 switch_stop one

step "a switch that appears while the daemon runs is followed"
deactivate "a new switch, in laptop mode" switch_start two 0
activate "the new switch in tablet mode" 4 switch_set two 1

step "SIGTERM while scrolling"
daemon_stop
expect_released "after SIGTERM"

step "When=manual: off until toggled"
config="$(daemon_config manual <<EOF
[Device]
Name=kxcj91008

[Activation]
When=manual
EOF
)"
# A new daemon, with the switch in tablet mode: manual ignores it.
daemon_start "$config"
daemon_pid_wait
expect_status 10 "When=manual at start" "${SCROLLING_OFF}switched off"
expect_no_device "When=manual at start"
expect_released "When=manual at start"
expect_asleep "When=manual at start" 1
activate "tiltscrollctl toggle" 5 ctl toggle
deactivate "SIGUSR2" kill -USR2 "$DAEMON_PID"
daemon_stop
expect_released "after SIGTERM while off"
frames_stop
frames_check_shape
switch_stop two
udevd_stop
pass "scrolling follows the tablet-mode switch (also one that appears late) and the manual toggle; the sensor is released and the daemon asleep while off"
