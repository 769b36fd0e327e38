#!/bin/bash
# record-touch: record the touchscreen fixture of Tests/umockdev/touch-tests
# from a real kernel: helpers/uinput-touch (a one-finger multitouch protocol
# B touchscreen, tagged ID_INPUT_TOUCHSCREEN by udevd's input_id), its sysfs
# and udev properties (umockdev-record), its ioctls and an event stream
# (umockdev-record -i -e, libinput reading it through libevdev as the
# daemon does, so that the ioctls libevdev asks are among those recorded): a finger down at 2 s that moves
# and lifts at 4 s, a tap at 6 s, a second contact from 8 s to 9 s. On success
# the run script copies $RUN_DIR/umockdev/* into Tests/umockdev/fixtures/.
# tool: records Tests/umockdev/fixtures/touchscreen.*
# timeout: 120
set -eu
# shellcheck source=lib.sh
. "$HARNESS_DIR/lib.sh"

out="$RUN_DIR/umockdev"
mkdir -p "$out"
udevd_run
touch_start one
node="$(fed_node touch one)"
udev_settle
[ "$(udev_property "/sys/class/input/${node#/dev/input/}" ID_INPUT_TOUCHSCREEN)" = 1 ] ||
	fail "udev did not tag $node ID_INPUT_TOUCHSCREEN"
umockdev-record "$node" >"$out/touchscreen.umockdev"
umockdev-record -i "$node=$out/touchscreen.ioctl" -e "$node=$out/touchscreen.events" -- \
	timeout 11 libinput debug-events --device "$node" >"$RUN_DIR/libinput.out" 2>&1 &
recorder=$!
started="$(now)"
at() { sleep "$(awk -v s="$started" -v t="$1" -v n="$(now)" 'BEGIN { d = s + t - n; printf "%.3f", (d > 0 ? d : 0) }')"; }
at 2; touch_send one down 1000 1000 >/dev/null
at 2.5; touch_send one move 1100 1200 >/dev/null
at 3; touch_send one move 1300 1400 >/dev/null
at 4; touch_send one up >/dev/null
at 6; touch_send one down 2000 2000 >/dev/null
touch_send one up >/dev/null
at 8; touch_send one down 3000 500 >/dev/null
at 9; touch_send one up >/dev/null
wait "$recorder" || true
log "recorded $(grep -c '^E:' "$out/touchscreen.events") events, $(wc -l <"$out/touchscreen.ioctl") ioctl lines"
grep -q 'ID_INPUT_TOUCHSCREEN=1' "$out/touchscreen.umockdev" || fail "no ID_INPUT_TOUCHSCREEN in the recording"
grep -q '^E: .* 0003 0039 -1$' "$out/touchscreen.events" || fail "no lift (ABS_MT_TRACKING_ID -1) among the events"
touch_stop one
udevd_stop
pass "recorded $node"
