#!/bin/bash
# gentle-rest: put down and picked up without a jolt, it never scrolls on
# its own (issue 20), on bmc150 polled (the part the issue measured it on),
# the poses presented by lib/pose.sh's hand and table. Nothing lowers or
# lifts the device and nothing knocks: only the hand's sway and tremor
# tell a hand from a table.
#   - Read at 30 degrees for 8 s (the guard learns the hand), tilted 12 away:
#     it scrolls.
#   - The pose stepped straight from the hand to a table, flat: silence from
#     REST_WITHIN s after the hand let go, for 8 s.
#   - Taken up again without a lift, turned to a new reading angle (20) over
#     0.8 s: silent from 1.5 s after the hand took it, for 4 s (the pose it
#     settles at is neutral, issue 20's "picked up gently").
#   - Tilted 12 away from there (32: inside the old neutral's dead zone): it
#     scrolls away within 1.5 s.
#   - Back at 20 and read for 8 s, then laid back 10 degrees onto a stand
#     (turned over 1 s, lib/pose.sh's lay_down): silence from REST_WITHIN s
#     after it arrived, for 6 s.
# The part's noise is 2 mg here (the harness's default, 3 mg, is "a few mg"
# for any part). How soon the hand's going shows depends on how far its sway
# stands above the noise: this hand sways mostly slowly (0.55 degrees at
# 0.11 Hz), so over the short window (1.4 s) it stands less than 32 times
# above 2 mg and the medium window (2.8 s) decides: REST_WITHIN is 2.8 s and
# a block to begin it, 3.3 s. (With this hand the physics reaches 2 s on a
# part of about 1 mg; at 3 mg the long window decides a quarter of the
# time, up to 7 s: Benchmarks/README.md.)
# timeout: 240
set -eu
# shellcheck source=lib.sh
. "$HARNESS_DIR/lib.sh"

TILT=12
NEW=20 # the new reading angle
REST_WITHIN=3.3
POSE_NOISE_MG_OF[bmc150]=2

# expect_gentle_rest WHAT LET_GO LIE: no frame from REST_WITHIN s after the
# hand let go (LET_GO) for LIE seconds; logs when the last frame came.
expect_gentle_rest() {
	expect_rest_after "$1" "$2" "the hand let go" "$REST_WITHIN" "$3"
}

stub_load bmc150
stub_add bmc150 >/dev/null
set_pose bmc150 "$NEUTRAL"
daemon_start_scrolling gentle-rest <<EOF
[Device]
Name=bmc150_accel
Mode=poll

[Activation]
When=always
EOF
t="$(now)"
sleep 8
expect_silence "read at the reading pose" "$t" "$(now)"

step "tilted $TILT degrees away in the hand: it scrolls"
hold bmc150 $((NEUTRAL + TILT)) 3
expect_scroll "$TILT degrees away" - "$(fadd "$HOLD_FROM" 1)" "$HOLD_TO" >/dev/null

step "the pose stepped straight from the hand to a table, flat, no jolt: it stops"
POSE_HOLD_OF[bmc150]=table
set_pose bmc150 90
expect_gentle_rest "flat on a table" "$(now)" 8

step "taken up without a lift, turned to a new reading angle ($NEW degrees): no scroll"
t="$(now)"
take_up bmc150 0.8 "$NEW"
sleep 5
expect_silence "taken up to $NEW degrees (the old neutral: $NEUTRAL), from 1.5 s after the hand took it" \
	"$(fadd "$t" 1.5)" "$(now)"

step "$TILT degrees away from the new reading angle: it scrolls"
hold bmc150 $((NEW + TILT)) 3
expect_prompt_start "$TILT degrees away from the new reading angle" "$HOLD_FROM" 1.5
expect_scroll "$TILT degrees away from the new reading angle" - "$(fadd "$HOLD_FROM" 1)" "$HOLD_TO" >/dev/null

step "back at the new reading angle, read, then laid back onto a stand without a jolt: it stops"
hold bmc150 "$NEW" 8
expect_silence "read at the new reading angle, from 0.5 s on" "$(fadd "$HOLD_FROM" 0.5)" "$HOLD_TO"
lay_down bmc150 1 $((NEW + 10))
expect_gentle_rest "on a stand, 10 degrees back" "$(now)" 6

daemon_stop
frames_stop
frames_check_shape
pass "put down without a jolt it stops within $REST_WITHIN s; taken up without one, the pose it settles at is neutral and a tilt from there scrolls"
