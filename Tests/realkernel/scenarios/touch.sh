#!/bin/bash
# touch: a finger on the screen pauses tilt scrolling (issue 11, "A finger
# on the screen pauses tilt"), on kxcjk-1013 polled, with udevd running and
# a uinput touchscreen (helpers/uinput-touch) that udev's input_id tags
# ID_INPUT_TOUCHSCREEN, created after the daemon started (hotplug).
#   - Scrolling 12 degrees away, a finger touches: at most one frame after
#     the contact and none later than one output frame period (60 Hz) after
#     it (of three contacts at most, one in time: the guest's vCPU can be
#     taken away); silent while the finger stays, though the device keeps
#     tilting (to 40 degrees) and the finger moves.
#   - The finger lifts: the pose of that moment (40) is neutral: silent for
#     2 s; 28 degrees (12 towards from there, inside the old neutral's dead
#     zone) scrolls positive; back at 40, silent.
#   - The daemon has the touchscreen open read-only, its status says
#     "touched" while the finger is down, and its output never carries the
#     touch coordinates.
# timeout: 240
set -eu
# shellcheck source=lib.sh
. "$HARNESS_DIR/lib.sh"

TILT=12
FRAME=0.016667 # one output frame at the default OutputRate=60
# Distinctive coordinates, to look for in the daemon's output.
X=1234 Y=2345 X2=1357 Y2=2468

stub_load kxcjk
stub_add kxcjk >/dev/null
udevd_run
set_pose kxcjk "$NEUTRAL"
daemon_start_scrolling touch <<EOF
[Device]
Name=kxcj91008

[Activation]
When=always
EOF
expect_status 10 "the first sample: the reading pose is neutral" "$SCROLLING"
t="$(now)"

step "a touchscreen appears while the daemon runs"
touch_start one
node="$(fed_node touch one)"
udev_settle
tagged="$(udev_property "/sys/class/input/${node#/dev/input/}" ID_INPUT_TOUCHSCREEN)"
[ "$tagged" = 1 ] || fail "udev did not tag $node ID_INPUT_TOUCHSCREEN (got '$tagged')"
wait_until 5 "the daemon to open the touchscreen $node" daemon_has_open "$node"
# Held still at the reading pose a second more (the behaviour under test).
sleep 1
expect_silence "at the reading pose" "$t" "$(now)"
fd="$(for f in "/proc/$DAEMON_PID/fd/"*; do [ "$(readlink "$f")" = "$node" ] && echo "${f##*/}"; done | head -n 1)"
flags="$(awk '$1 == "flags:" { print $2 }' "/proc/$DAEMON_PID/fdinfo/$fd")"
[ $((8#$flags & 3)) = 0 ] || fail "the daemon has $node open with flags $flags, not read-only"
log "the daemon has $node open read-only (flags $flags)"

step "a finger touches while it scrolls: the pause comes within one frame"
# How late the daemon is measured in wall time, and under TCG a vCPU the
# host takes away for a few tens of milliseconds stalls the daemon with
# the rest of the guest: a contact whose one frame came late is tried
# again (the finger lifted at 40, that pose then neutral), up to three
# times. More than one frame after any contact fails at once.
from="$NEUTRAL"
for attempt in 1 2 3; do
	hold kxcjk $((from + TILT)) 2
	expect_scroll "$TILT degrees away from $from" - "$(fadd "$HOLD_FROM" 1)" "$HOLD_TO" >/dev/null
	# The contact comes 0.3 s from now, with this shell asleep until 0.5 s
	# (one vCPU, and the pause must come within a frame); the finger stays
	# (the behaviour under test) while the device tilts on, moves, stays.
	down="$(touch_send_quietly one 0.3 0.5 down "$X" "$Y")"
	set_pose kxcjk 40
	sleep 0.3
	expect_status 2 "the finger on the screen" '; touched: '
	touch_send one move "$X2" "$Y2" >/dev/null
	sleep 1
	read -r after _ < <(frames_window "$down" "$(now)")
	late="$(awk -v a="$(fadd "$down" "$FRAME")" '$1 == "frame" && $2 >= a' "$FRAMES" | head -n 3)"
	if [ "$after" -gt 1 ]; then
		fail "after the contact: $after frames, those later than one frame period: ${late:-none}"
	fi
	[ -n "$late" ] || break
	lateness="$(echo "$late" | awk -v d="$down" '{ printf "%.1f ms", ($2 - d) * 1000 }')"
	[ "$attempt" -lt 3 ] || fail "after the contact, three times: one frame, later than one frame period (the last $lateness after it)"
	log "attempt $attempt: one frame after the contact, $lateness after it (over one frame period): again"
	touch_send one up >/dev/null
	from=40
done
log "after the contact: $after frame(s), none later than one frame period (attempt $attempt)"

step "the finger lifts: the pose of that moment is neutral"
up="$(touch_send one up)"
# Held at 40 for 2 s after the lift (the behaviour under test).
sleep 2
expect_silence "at 40 degrees after the lift" "$up" "$(now)"
hold kxcjk 28 3
expect_scroll "12 degrees towards the pose of the lift" + "$(fadd "$HOLD_FROM" 1)" "$HOLD_TO" >/dev/null
hold kxcjk 40 2
expect_silence "back at 40 degrees, from 0.5 s on" "$(fadd "$HOLD_FROM" 0.5)" "$HOLD_TO"

step "nothing of the touch in the daemon's output"
if grep -wE "$X|$Y|$X2|$Y2" "$RUN_DIR/daemon.err" "$RUN_DIR/daemon.out"; then
	fail "the daemon's output carries touch coordinates"
fi
daemon_stop
frames_stop
frames_check_shape
touch_stop one
udevd_stop
pass "a finger pauses tilt scrolling within a frame; lifting it makes the pose neutral"
