#!/bin/bash
# pick-up: a device picked up again resumes without a burst (issue 11, "Put
# down, it stops"), on the HID sensor hub buffered, the poses presented by
# lib/pose.sh's hand and table.
#   - Put down flat after reading at 30 degrees, then picked up at a new
#     reading angle (20): it never starts scrolling on its own (the neutral
#     is where it settles in the hand): silent for 5 s. A tilt of 12 away
#     from there (32, inside the old neutral's dead zone) scrolls, within
#     1.5 s.
#   - Put down again and picked up at that same angle (20): it works at
#     once: a tilt 12 away 0.5 s after the lift scrolls within 1.5 s.
# Put down and picked up the way a hand does it (lib/pose.sh: lowered or
# lifted 0.2 m, turned on the way).
# timeout: 240
set -eu
# shellcheck source=lib.sh
. "$HARNESS_DIR/lib.sh"

TILT=12
NEW=20 # the new reading angle

# lie_flat SECONDS: put down flat on a table, left there (the behaviour
# under test).
lie_flat() {
	put_down hid 90
	sleep "$1"
}

hid_start >/dev/null
set_pose hid "$NEUTRAL"
daemon_start_scrolling pick-up <<EOF
[Device]
Name=accel_3d
Mode=buffer

[Activation]
When=always
EOF
t="$(now)"
# Held at the reading pose for 2 s: silent (the behaviour under test).
sleep 2
expect_silence "held at the reading pose" "$t" "$(now)"

step "put down flat, picked up at a new reading angle ($NEW degrees): no scroll"
lie_flat 4
t="$(now)"
pick_up hid "$NEW"
# Held there 5 s: it must not start on its own (the behaviour under test).
sleep 5
expect_silence "picked up at $NEW degrees (the old neutral: $NEUTRAL)" "$t" "$(now)"
hold hid $((NEW + TILT)) 3
expect_prompt_start "$TILT degrees away from the new reading angle" "$HOLD_FROM" 1.5
expect_scroll "$TILT degrees away from the new reading angle" - "$(fadd "$HOLD_FROM" 1)" "$HOLD_TO" >/dev/null
hold hid "$NEW" 2
expect_silence "back at the new reading angle, from 0.5 s on" "$(fadd "$HOLD_FROM" 0.5)" "$HOLD_TO"

step "put down again, picked up at the same angle: it works at once"
lie_flat 4
t="$(now)"
pick_up hid "$NEW"
# Tilted half a second after the lift (the behaviour under test).
sleep 0.5
expect_silence "picked up at $NEW degrees again" "$t" "$(now)"
hold hid $((NEW + TILT)) 3
expect_prompt_start "$TILT degrees away right after the pick-up" "$HOLD_FROM" 1.5
expect_scroll "$TILT degrees away right after the pick-up" - "$(fadd "$HOLD_FROM" 1)" "$HOLD_TO" >/dev/null

daemon_stop
frames_stop
frames_check_shape
pass "picked up at a new angle it stays still and scrolls from there; at the same angle it works at once"
