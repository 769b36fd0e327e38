#!/bin/bash
# put-down: a device put down stops scrolling; one held keeps scrolling
# (issue 11, "Put down, it stops"), on kxcjk-1013 polled, the poses
# presented by lib/pose.sh's hand and table.
#   - Held in a hand 12 degrees away for 30 s: it scrolls all along, at an
#     even speed (every second has frames; every five-second stretch within
#     30 % of the mean rate): a steady hand is not a table.
#   - Put down there, as on a stand (lowered onto it at the same pose, then
#     only the sensor's noise): silence from 2 s after it came to rest, for
#     10 s.
#   - Picked up at the reading pose and tilted 12 away: scrolling again;
#     then put down flat on a table (turned to face up while lowered, then
#     at rest): silence from 2 s after it came to rest, for 10 s.
# timeout: 200
set -eu
# shellcheck source=lib.sh
. "$HARNESS_DIR/lib.sh"

TILT=12
REST_WITHIN=2 # issue 11: scrolling stops within 2 s of the device coming to rest
LIE=10

# expect_even_scroll WHAT FROM TO: frames in every whole second of the
# window, and the rate of every whole five seconds within 30 % of their mean.
expect_even_scroll() {
	local what="$1" quiet rates
	read -r quiet rates < <(awk -v a="$2" -v b="$3" '
		$1 == "frame" && $2 >= a && $2 < b { n[int($2 - a)]++; h[int(($2 - a) / 5)] += $3 }
		END {
			for (s = 0; s < int(b - a); s++) if (!n[s]) quiet = quiet (quiet == "" ? "" : ",") s
			printf "%s", quiet == "" ? "none" : quiet
			for (f = 0; f < int((b - a) / 5); f++) printf " %.1f", h[f] / 5
			print ""
		}' "$FRAMES")
	log "$what: five-second rates (units/s): $rates; seconds without a frame: $quiet"
	[ "$quiet" = none ] || fail "$what: no frame in second(s) $quiet of the hold: it stopped scrolling while held"
	awk -v r="$rates" 'BEGIN { n = split(r, v, " "); for (i = 1; i <= n; i++) s += v[i]; m = s / n
		if (m == 0) exit 1
		for (i = 1; i <= n; i++) { d = (v[i] - m) / m; if (d < 0) d = -d; if (d > 0.3) exit 1 } }' ||
		fail "$what: the speed is not even (five-second rates $rates)"
}

# expect_rest WHAT RESTED: no frame from REST_WITHIN s after RESTED on, for
# LIE seconds; logs when the last frame came.
expect_rest() {
	expect_rest_after "$1" "$2" "coming to rest" "$REST_WITHIN" "$LIE"
}

stub_load kxcjk
stub_add kxcjk >/dev/null
set_pose kxcjk "$NEUTRAL"
daemon_start_scrolling put-down <<EOF
[Device]
Name=kxcj91008

[Activation]
When=always
EOF
t="$(now)"
# Held at the reading pose for 2 s: silent (the behaviour under test).
sleep 2
expect_silence "held at the reading pose" "$t" "$(now)"

step "held $TILT degrees away for 30 s: scrolling all along, evenly"
hold kxcjk $((NEUTRAL + TILT)) 31
expect_even_scroll "held $TILT degrees away" "$(fadd "$HOLD_FROM" 1)" "$HOLD_TO"

step "put down there (on a stand): it stops"
put_down kxcjk
expect_rest "on a stand at $((NEUTRAL + TILT)) degrees" "$(now)"

step "picked up at the reading pose, tilted, then put down flat on a table: it stops"
pick_up kxcjk "$NEUTRAL"
# Held a second in the hand before the tilt (the behaviour under test).
sleep 1
hold kxcjk $((NEUTRAL + TILT)) 2
expect_scroll "picked up again, $TILT degrees away" - "$(fadd "$HOLD_FROM" 1)" "$HOLD_TO" >/dev/null
put_down kxcjk 90
expect_rest "flat on a table" "$(now)"

daemon_stop
frames_stop
frames_check_shape
pass "held, it scrolls evenly; put down on a stand or flat, it stops within $REST_WITHIN s"
