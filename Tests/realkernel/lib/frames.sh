# shellcheck shell=bash
# Recording what the daemon's device sends (evread frames) and questions
# about time windows of that recording. Windows are [FROM, TO) in
# CLOCK_MONOTONIC seconds, as returned by now.

FRAMES="${RUN_DIR:-/tmp}/frames.txt"

# frames_start: record every frame of the "tiltscroll" device from when it
# appears, following it if it goes and comes back, until frames_stop.
frames_start() {
	"$HELPERS_DIR/evread" frames --follow --timeout 60 >"$FRAMES" 2>"$RUN_DIR/evread.err" &
	FRAMES_PID=$!
	diag_file "$FRAMES"
}

frames_wait_ready() {
	wait_until 10 "evread to open the daemon's device" grep -q '^ready ' "$FRAMES"
}

frames_stop() {
	kill -TERM "$FRAMES_PID" 2>/dev/null || true
	wait_exit "$FRAMES_PID" 5
	log "evread: $(grep '^summary' "$FRAMES" || echo 'no summary')"
}

# frames_window FROM TO: "COUNT HIRES WHEEL HHIRES HWHEEL" of the frames in it.
frames_window() {
	awk -v a="$1" -v b="$2" '
		$1 == "frame" && $2 >= a && $2 < b { n++; h += $3; w += $4; hh += $5; hw += $6 }
		END { printf "%d %d %d %d %d\n", n, h, w, hh, hw }' "$FRAMES"
}

# frames_rate FROM TO: hi-res units per second in the window.
frames_rate() {
	awk -v a="$1" -v b="$2" '
		$1 == "frame" && $2 >= a && $2 < b { h += $3 }
		END { printf "%.1f\n", h / (b - a) }' "$FRAMES"
}

# frames_show FROM TO: the frames in a window, for a failure message.
frames_show() {
	awk -v a="$1" -v b="$2" '$1 == "frame" && $2 >= a && $2 < b' "$FRAMES" | head -n 20
}

# frames_check_shape: every frame carries hi-res, REL_WHEEL never disagrees
# with it in sign, and nothing but wheel motion was sent.
frames_check_shape() {
	local bad
	bad="$(awk '$1 == "frame" && ($3 == 0 || $3 * $4 < 0 || $5 != 0 || $6 != 0)' "$FRAMES" | head -n 5)"
	[ -z "$bad" ] || fail "frames without hi-res, with a REL_WHEEL against the hi-res direction, or horizontal:
$bad"
	if grep -q '^summary' "$FRAMES"; then
		grep -q ' dropped=0 other=0$' "$FRAMES" || fail "evread saw dropped or foreign events: $(grep '^summary' "$FRAMES")"
	fi
}

# frames_wait_quiet SECONDS: waits (10 s at most) until the device has sent
# no frame for SECONDS: back at neutral, the scroll has come to rest.
frames_wait_quiet() {
	wait_until 10 "no frame for $1 s" frames_quiet_for "$1"
}

frames_quiet_for() {
	local last
	last="$(awk '$1 == "frame" { t = $2 } END { print t }' "$FRAMES")"
	[ -z "$last" ] || fcmp "$(now)" ">=" "$(fadd "$last" "$1")"
}

# frames_first FROM: the time of the first frame at or after FROM (empty if none).
frames_first() {
	awk -v a="$1" '$1 == "frame" && $2 >= a { print $2; exit }' "$FRAMES"
}

# expect_prompt_start WHAT FROM LIMIT: the first frame after FROM (a tilt)
# must come within LIMIT seconds.
expect_prompt_start() {
	local first
	first="$(frames_first "$2")"
	[ -n "$first" ] || fail "$1: no frame at all after the tilt"
	fcmp "$first" "<=" "$(fadd "$2" "$3")" ||
		fail "$1: the first frame came $(awk -v a="$first" -v b="$2" 'BEGIN { printf "%.2f", a - b }') s after the tilt, more than $3 s"
	log "$1: first frame $(awk -v a="$first" -v b="$2" 'BEGIN { printf "%.2f", a - b }') s after the tilt"
}
