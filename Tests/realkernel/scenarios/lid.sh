#!/bin/bash
# lid: a lid switch (SW_LID, made with uinput as the ACPI lid button makes
# one) closes and opens while the daemon scrolls (issue 24), on kxcjk-1013
# with udevd and a system bus running and no logind: the lid is read from
# evdev, so it pauses without logind (whose LidClosed announces no change).
#   - Started with the lid open: the daemon holds the switch's node open
#     (read-only) and scrolls on a tilt.
#   - The lid closed while it scrolls: the last frame within 0.1 s after the
#     switch event (one output frame period and the loop's round under TCG)
#     and within 0.5 s before it (it scrolled up to the close),
#     the "tiltscroll" device gone within 1 s, the sensor's settings as
#     before the daemon, its systemd status (STATUS=) and tiltscrollctl
#     status --json (State paused) saying "Scrolling paused: the lid is
#     closed", the daemon asleep (no wake-up in 2 s); tilted further
#     meanwhile, nothing.
#   - The lid opened: the device back within 3 s, silent for 1 s at the pose
#     held then (the neutral pose is taken afresh), 12 degrees towards the
#     user from there scrolls (positive).
#   - PauseWhenLidClosed=no (SIGHUP): the switch's node is let go of, and
#     closing the lid changes nothing: held there, it scrolls on.
#   - SIGTERM: exit 0, the settings as before.
# timeout: 240
set -eu
# shellcheck source=lib.sh
. "$HARNESS_DIR/lib.sh"

TILT=12 # degrees from neutral for a clear scroll (full speed at 25)

stub_load kxcjk
dir="$(stub_add kxcjk)"
echo 12.5 >"$dir/in_accel_sampling_frequency"
before="$(iio_settings "$dir")"

expect_released() {
	[ "$(iio_settings "$dir")" = "$before" ] ||
		fail "$1: the sensor's settings are not as they were before the daemon: $(iio_settings "$dir" | tr '\n' ' ')"
	log "$1: sensor settings as before the daemon"
}

# state_json: the daemon's State, as tiltscrollctl status --json gives it
# (the scenario runs a system bus: the client reads the bus).
state_json() {
	ctl status --json | grep -o '"State": \[[^]]*\]'
}

state_is_paused_by_lid() {
	state_json | grep -qF '["paused", "Scrolling paused: the lid is closed"]'
}

# lid_flip STATE: the lid closed (1) or opened (0); LID_AT is when the
# switch sent it (CLOCK_MONOTONIC, evread's clock).
lid_flip() {
	local sent
	sent="$(lid_sent_count)"
	switch_set lid "$1"
	wait_until 5 "the lid switch to send $1" lid_sent_more "$sent"
	LID_AT="$(awk '$1 == "sent" { t = $3 } END { print t }' "$RUN_DIR/switch-lid.out")"
}

lid_sent_count() {
	grep -c '^sent ' "$RUN_DIR/switch-lid.out" || true
}

lid_sent_more() {
	[ "$(lid_sent_count)" -gt "$1" ]
}

reloads() {
	grep -c '^Reloaded ' "$RUN_DIR/daemon.err" || true
}

reloaded_since() {
	[ "$(reloads)" -gt "$1" ]
}

lid_let_go() {
	! daemon_has_open "$lid_node"
}

step "udevd, a system bus with the project's policy, a lid switch (open), then the daemon"
udevd_run
system_bus_start --policy
fed_start switch lid "$HELPERS_DIR/uinput-switch" --switch lid --name "tiltscroll test lid switch" --state 0
lid_node="$(fed_node switch lid)"
log "lid switch: $lid_node"
set_pose kxcjk "$NEUTRAL"
daemon_start_scrolling lid <<EOF
[Device]
Name=kxcj91008

[Activation]
When=always
EOF
config="$CONFIG_DIR/lid.conf"
wait_until 10 "the daemon to hold the lid switch open" daemon_has_open "$lid_node"
log "the daemon reads $lid_node"
wait_until 10 "the daemon on the bus" ctl status --json
grep -q "logind is not on the system bus" "$RUN_DIR/daemon.err" ||
	fail "the daemon did not say that logind is not there"

step "tilted, it scrolls; the lid closed: silence, the device and the sensor let go of, paused"
hold kxcjk $((NEUTRAL + TILT)) 2
expect_scroll "$TILT degrees away" - "$(fadd "$HOLD_FROM" 0.8)" "$HOLD_TO" >/dev/null
lid_flip 1
closed="$LID_AT"
expect_device_gone_within "lid closed" "$closed" 1
last="$(awk '$1 == "frame" { t = $2 } END { print t }' "$FRAMES")"
[ -n "$last" ] || fail "no frame at all before the lid closed"
after="$(awk -v a="$last" -v b="$closed" 'BEGIN { printf "%.3f", a - b }')"
fcmp "$last" "<=" "$(fadd "$closed" 0.1)" || fail "lid closed: a frame $after s after it"
# ... and it scrolled up to then: the silence is the lid's.
fcmp "$last" ">=" "$(fadd "$closed" -0.5)" || fail "lid closed: it had stopped scrolling $after s before"
log "lid closed: the last frame $after s after the switch event"
expect_released "lid closed"
expect_status 5 "lid closed" '^Scrolling paused: the lid is closed$'
wait_until 5 "State paused by the lid" state_is_paused_by_lid
log "lid closed: $(state_json)"
expect_asleep "lid closed" 2
hold kxcjk $((NEUTRAL + 2 * TILT)) 1
expect_silence "lid closed, tilted further" "$closed" "$(now)"

step "the lid opened: the device back, silent at the pose held, a tilt from there scrolls"
lid_flip 0
opened="$LID_AT"
expect_device_within "lid opened" "$opened" 3
frames_wait_ready_count 2
expect_status 5 "lid opened" "$SCROLLING"
sleep 1
expect_silence "lid opened, held at $((NEUTRAL + 2 * TILT)) (the new neutral)" "$opened" "$(now)"
hold kxcjk $((NEUTRAL + TILT)) 2
expect_scroll "$TILT degrees towards the user from the new neutral" + "$(fadd "$HOLD_FROM" 0.8)" "$HOLD_TO" >/dev/null
log "lid opened: $(state_json)"

step "PauseWhenLidClosed=no: the switch let go of, the lid changes nothing"
reloaded="$(reloads)"
cat >"$config" <<EOF
[Device]
Name=kxcj91008

[Activation]
When=always
PauseWhenLidClosed=no
EOF
kill -HUP "$DAEMON_PID"
wait_until 10 "the reload" reloaded_since "$reloaded"
wait_until 5 "the daemon to let the lid switch go" lid_let_go
lid_flip 1
sleep 1.5
device_exists || fail "PauseWhenLidClosed=no: the device went with the lid"
expect_scroll "lid closed, PauseWhenLidClosed=no: held $TILT degrees towards" + "$(fadd "$LID_AT" 0.5)" "$(now)" >/dev/null
state_json | grep -q '"State": \["active"' || fail "PauseWhenLidClosed=no: $(state_json)"

step "SIGTERM"
daemon_stop
expect_released "after SIGTERM"
frames_stop
frames_check_shape
fed_stop switch lid
udevd_stop
pass "the lid closed pauses within a frame (the device gone, the sensor released, the daemon asleep, State paused), opened starts afresh, PauseWhenLidClosed=no ignores it; without logind"
