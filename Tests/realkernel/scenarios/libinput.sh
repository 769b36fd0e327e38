#!/bin/bash
# libinput: a real client. libinput debug-events (Debian's libinput-tools,
# udev seat backend, with udevd running and the project's rules installed)
# must see the daemon's device and report its frames as wheel scrolling:
# tilting away (negative REL_WHEEL_HI_RES) is scrolling down, which libinput
# reports as POSITIVE vertical v120; tilting towards the user, negative. The
# values must be hi-res (not whole detents) and add up to exactly what the
# device sent in each phase, as read by evread at the same time.
# timeout: 240
set -eu
# shellcheck source=lib.sh
. "$HARNESS_DIR/lib.sh"

LIBINPUT_LOG="$RUN_DIR/libinput.txt"

# libinput_v120 [SIGN]: the v120 values libinput reported for the daemon's
# node, one per line; with + or -, only those of that sign.
libinput_v120() {
	awk -v node="$NODE" -v sign="${1:-}" '
		$0 ~ "POINTER_SCROLL_WHEEL" && ($1 == node || $1 == "-" node) &&
		match($0, /vert -?[0-9.]+\/-?[0-9.]+/) {
			split(substr($0, RSTART + 5, RLENGTH - 5), v, "/")
			if (sign == "" || (sign == "+" && v[2] > 0) || (sign == "-" && v[2] < 0)) print v[2] + 0
		}' "$LIBINPUT_LOG"
}

sum_lines() {
	awk '{ s += $1 } END { printf "%d\n", s }'
}

step "udevd, the daemon, and libinput debug-events"
stub_load kxcjk
stub_add kxcjk >/dev/null
udev_install_project_rules
udevd_start
set_pose kxcjk "$NEUTRAL"
daemon_start_scrolling libinput <<EOF
[Device]
Name=kxcj91008

[Activation]
When=always
EOF
NODE="$(awk '$1 == "ready" { sub("/dev/input/", "", $3); print $3; exit }' "$FRAMES")"
udev_settle
log "udev: $NODE has ID_INPUT=$(udev_property "/sys/class/input/$NODE" ID_INPUT) ID_INPUT_KEY=$(udev_property "/sys/class/input/$NODE" ID_INPUT_KEY)"
stdbuf -oL libinput debug-events >"$LIBINPUT_LOG" 2>&1 &
LIBINPUT_PID=$!
diag_file "$LIBINPUT_LOG"
wait_until 30 "libinput to add the daemon's device" grep -q "DEVICE_ADDED.*tiltscroll" "$LIBINPUT_LOG"
log "libinput: $(grep 'DEVICE_ADDED.*tiltscroll' "$LIBINPUT_LOG" | tr -s ' \t' ' ')"

step "tilt away, back, towards, back"
# Each phase's frames: from the moment its pose was being written until the
# next phase's; the ramp down after returning to neutral belongs to it.
hold kxcjk $((NEUTRAL + 15)) 3
away_from="$HOLD_START"
hold kxcjk "$NEUTRAL" 2
hold kxcjk $((NEUTRAL - 15)) 3
towards_from="$HOLD_START"
hold kxcjk "$NEUTRAL" 2
frames_wait_quiet 0.5
towards_to="$(now)"
kill -INT "$LIBINPUT_PID"
wait_exit "$LIBINPUT_PID" 5

step "what libinput saw"
read -r _ away_hires _ < <(frames_window "$away_from" "$towards_from")
read -r _ towards_hires _ < <(frames_window "$towards_from" "$towards_to")
read -r all_frames all_hires _ < <(frames_window 0 "$(now)")
log "evread: away $away_hires, towards $towards_hires, all $all_hires hi-res units in $all_frames frames"
if [ "$away_hires" -ge 0 ] || [ "$towards_hires" -le 0 ]; then
	fail "the device itself scrolled the wrong way (away $away_hires, towards $towards_hires)"
fi

count="$(libinput_v120 | wc -l)"
down="$(libinput_v120 + | sum_lines)"
up="$(libinput_v120 - | sum_lines)"
log "libinput: $count wheel events, +$down v120 down (away), $up v120 up (towards)"
[ "$count" -gt 0 ] || fail "libinput reported no POINTER_SCROLL_WHEEL events for $NODE"
[ "$down" -eq $((-away_hires)) ] ||
	fail "libinput's positive v120 sum $down is not the negated hi-res sum $away_hires of tilting away"
[ "$up" -eq $((-towards_hires)) ] ||
	fail "libinput's negative v120 sum $up is not the negated hi-res sum $towards_hires of tilting towards"
[ "$(libinput_v120 | head -n 1)" -gt 0 ] || fail "libinput's first scroll event is not downwards (tilting away came first)"
[ "$(libinput_v120 | tail -n 1)" -lt 0 ] || fail "libinput's last scroll event is not upwards (tilting towards came last)"
fractions="$(libinput_v120 | awk '$1 % 120 != 0' | wc -l)"
[ "$fractions" -gt 0 ] || fail "every v120 value is a whole detent: libinput did not get hi-res scrolling"
log "$fractions of $count events carry a fraction of a detent"

step "SIGTERM"
daemon_stop
frames_stop
frames_check_shape
pass "libinput reports the daemon's scrolling in the right direction, hi-res, nothing lost"
