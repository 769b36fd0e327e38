#!/bin/bash
# demand: the daemon samples only as often as the engine asks (issue 14,
# "Cost nothing while nothing moves"), and puts back every setting it
# changed for that, also after it was killed.
#   - kxcjk-1013 polled: held still in a hand at the reading pose it reads
#     about a quarter of the samples (at most 15 a second, against 50), the
#     sampling frequency untouched; tilted, every sample again, and one
#     wake-up per frame (frames ride on the samples); put down on a table,
#     2.5 samples a second; picked up and tilted, it scrolls at once (or, if
#     the lift was taken for a carry, at a further tilt from the new angle).
#   - The HID sensor hub buffered: held still, its sampling frequency (the
#     report interval) follows to 12.5 Hz; put down, to 2.5 Hz; a tilt raises
#     it to 50 Hz at once and scrolls; SIGTERM restores every setting.
#     Killed (SIGKILL) while resting at 2.5 Hz: the next daemon writes the
#     originals back before it captures (its SIGTERM then leaves everything
#     as it was before the first one).
#   - A hub that reports its change sensitivity (uhid-accel --sensitivity;
#     by default the testbed's hub answers EINVAL and is left alone): lying
#     still it is raised to one count and the hub goes nearly quiet; picked
#     up, it is back at once, and a tilt scrolls.
# timeout: 400
set -eu
# shellcheck source=lib.sh
. "$HARNESS_DIR/lib.sh"

TILT=12
WINDOW=5
# The engine's resting rate (ScrollEngine.restingSampleRate), and how a
# HID sensor hub reads it back (1000 / the report interval in ms, in the
# kernel's six decimals).
RESTING_HZ=2.5
RESTING_FREQUENCY="$(printf '%.6f' "$RESTING_HZ")"

# scrolls_after_pick_up DEVICE WHAT T: picked up straight to TILT away at T
# (pick_up returned, and 1.5 s more), it scrolled within 1 s. The guard
# reads such a lift as a carry: its acceleration takes the magnitude off
# 1 g at the first resting sample, or, when that sample comes after it, at
# the lift's end while the departure waits for a carry (IntentGuard's
# decideSeconds). Then the pose it settles in becomes neutral and nothing
# scrolls (the pick-up scenario's promise), and a further TILT must scroll
# within 1.5 s. A scroll at once is a lift read as a still hand moving
# again (the neutral kept), which only a lift too slow to show 0.07 g
# should give.
scrolls_after_pick_up() {
	local t1
	if [ -n "$(frames_first "$3")" ]; then
		expect_prompt_start "$2" "$3" 1
		return
	fi
	log "$2: no frame: the lift was taken for a carry, the new angle is neutral"
	t1="$(now)"
	set_pose "$1" $((NEUTRAL + 2 * TILT))
	# Held at the further tilt (the behaviour under test).
	sleep 1.5
	expect_prompt_start "$2, then $TILT degrees further" "$t1" 1.5
}
# A hand held still follows within about a second; a put-down is told
# from a hand by the long window (5.6 s); a buffer lowers its rate 2 s after
# the demand fell.
STILL_WITHIN=6
REST_WITHIN=12

# samples_per_second SECONDS: sample reads of a polling daemon per second
# over a window (slept through: the measurement) (three preads per sample: /proc/PID/io counts them), and
# its wake-ups per second (voluntary context switches), as "SAMPLES WAKEUPS".
samples_per_second() {
	local r0 r1 w0 w1 t0 t1
	r0="$(awk '$1 == "syscr:" { print $2 }' "/proc/$DAEMON_PID/io")" w0="$(daemon_wakeups)" t0="$(now)"
	sleep "$1"
	r1="$(awk '$1 == "syscr:" { print $2 }' "/proc/$DAEMON_PID/io")" w1="$(daemon_wakeups)" t1="$(now)"
	awk -v r="$((r1 - r0))" -v w="$((w1 - w0))" -v s="$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
		'BEGIN { printf "%.1f %.1f\n", r / 3 / s, w / s }'
}

# attribute_is FILE VALUE: the attribute reads VALUE.
attribute_is() {
	local value
	read -r value <"$1"
	[ "$value" = "$2" ]
}

# frequency_is DIR VALUE: the device's sampling frequency reads VALUE.
frequency_is() {
	local value
	read -r value <"$(iio_sampling_frequency_file "$1")"
	[ "$value" = "$2" ]
}

step "kxcjk-1013 polled: the reads follow the engine's demand"
stub_load kxcjk
kdir="$(stub_add kxcjk)"
set_pose kxcjk "$NEUTRAL"
frequency_before="$(cat "$(iio_sampling_frequency_file "$kdir")")"
daemon_start_scrolling demand-poll <<EOF
[Device]
Name=kxcj91008
Mode=poll

[Activation]
When=always
EOF
frequency_running="$(cat "$(iio_sampling_frequency_file "$kdir")")"
expect_status "$STILL_WITHIN" "held still in a hand" '; following: '
read -r samples wakeups < <(samples_per_second "$WINDOW")
log "held still in a hand: $samples samples/s, $wakeups wake-ups/s (sampling frequency $frequency_running Hz)"
fcmp "$samples" "<=" 15 || fail "held still: $samples samples a second, more than a quarter of 50 (and some)"
fcmp "$samples" ">=" 8 || fail "held still: only $samples samples a second, fewer than the engine asks for"
frequency_is "$kdir" "$frequency_running" || fail "polling changed the sampling frequency to follow the demand"

hold kxcjk $((NEUTRAL + TILT)) 1
read -r samples wakeups < <(samples_per_second "$WINDOW")
read -r frames _ < <(frames_window "$(fadd "$(now)" -"$WINDOW")" "$(now)")
log "tilted $TILT degrees away: $samples samples/s, $wakeups wake-ups/s, $((frames / WINDOW)) frames/s"
fcmp "$samples" ">=" 35 || fail "scrolling: only $samples samples a second, not the full rate"
[ "$frames" -gt $((WINDOW * 30)) ] || fail "scrolling: only $frames frames in $WINDOW s"
fcmp "$wakeups" "<=" "$(awk -v s="$samples" 'BEGIN { print s * 1.15 + 3 }')" ||
	fail "scrolling: $wakeups wake-ups a second for $samples samples: frames do not ride on the samples"

set_pose kxcjk "$NEUTRAL"
# Back at the reading pose for a second before it is put down (behaviour).
sleep 1
put_down kxcjk
expect_status "$REST_WITHIN" "put down" '; resting: '
read -r samples wakeups < <(samples_per_second "$WINDOW")
log "put down at the reading pose: $samples samples/s, $wakeups wake-ups/s"
fcmp "$samples" "<=" "$(awk -v r="$RESTING_HZ" 'BEGIN { print r + 1 }')" ||
	fail "resting: $samples samples a second, more than the $RESTING_HZ the engine asks for"
t="$(now)"
pick_up kxcjk $((NEUTRAL + TILT))
# Held tilted for 1.5 s (the behaviour under test).
sleep 1.5
scrolls_after_pick_up kxcjk "picked up and tilted" "$t"
daemon_stop
frames_stop
frequency_is "$kdir" "$frequency_before" || fail "the sampling frequency of kxcjk-1013 was not restored"

step "the HID sensor hub buffered: the sampling frequency follows the demand"
hdir="$(hid_start)"
set_pose hid "$NEUTRAL"
before="$(iio_settings "$hdir")"
config="$(daemon_config demand-buffer <<EOF
[Device]
Name=accel_3d
Mode=buffer

[Activation]
When=always
EOF
)"
frames_start
daemon_start "$config"
daemon_wait_device
frames_wait_ready_count 1
wait_until 3 "the buffer to run at 50 Hz" frequency_is "$hdir" 50.000000
wait_until "$STILL_WITHIN" "held still: the report interval at 12.5 Hz" frequency_is "$hdir" 12.500000
log "held still in a hand: the hub reports at 12.5 Hz"
set_pose hid "$NEUTRAL"
put_down hid
wait_until "$REST_WITHIN" "put down: the report interval at $RESTING_HZ Hz" frequency_is "$hdir" "$RESTING_FREQUENCY"
log "put down: the hub reports at $RESTING_HZ Hz"
t="$(now)"
pick_up hid $((NEUTRAL + TILT))
wait_until 1 "a tilt: 50 Hz again at once" frequency_is "$hdir" 50.000000
# Held tilted for 1.5 s (the behaviour under test).
sleep 1.5
scrolls_after_pick_up hid "picked up and tilted" "$t"
set_pose hid "$NEUTRAL"
daemon_stop
frames_stop
iio_expect_settings "$hdir" "$before" "the HID sensor hub's settings after SIGTERM"

step "killed while resting: the next daemon restores"
daemon_start "$config"
daemon_wait_device
put_down hid
wait_until "$((STILL_WITHIN + REST_WITHIN))" "put down: $RESTING_HZ Hz" frequency_is "$hdir" "$RESTING_FREQUENCY"
kill -KILL "$DAEMON_PID"
wait_exit "$DAEMON_PID" 10
[ -s /run/tiltscroll/settings-journal ] || fail "no settings journal after the daemon was killed"
log "killed at $RESTING_HZ Hz; the journal holds: $(grep -v '^#' /run/tiltscroll/settings-journal | tr '\n' ' ')"
frequency_is "$hdir" "$RESTING_FREQUENCY" || fail "the sampling frequency changed after the kill"
daemon_start "$config"
daemon_wait_device
wait_until 10 "the new daemon to say it restored" grep -q 'restored [0-9]* settings left by a previous tiltscrolld' \
	"$RUN_DIR/daemon.err"
log "$(grep 'restored [0-9]* settings left' "$RUN_DIR/daemon.err" | tail -n 1)"
daemon_stop
iio_expect_settings "$hdir" "$before" "the HID sensor hub's settings after a kill and the next daemon's SIGTERM"
step "a hub that reports its change sensitivity: one count while resting"
hid_stop
hdir="$(HID_SENSITIVITY=1 hid_start)"
set_pose hid "$NEUTRAL"
hysteresis_before="$(cat "$hdir/in_accel_hysteresis")"
log "in_accel_hysteresis reads $hysteresis_before"
before="$(iio_settings "$hdir")"
frames_start
daemon_start "$config"
daemon_wait_device
frames_wait_ready_count 1
put_down hid
wait_until "$((STILL_WITHIN + REST_WITHIN))" "resting: the change sensitivity at one count (0.01 g)" \
	attribute_is "$hdir/in_accel_hysteresis" 0.010000
frequency_is "$hdir" "$RESTING_FREQUENCY" ||
	fail "resting with a change sensitivity: the sampling frequency is not $RESTING_HZ Hz"
rchar0="$(awk '$1 == "rchar:" { print $2 }' "/proc/$DAEMON_PID/io")"
# Lying still through the measurement window.
sleep "$WINDOW"
rchar1="$(awk '$1 == "rchar:" { print $2 }' "/proc/$DAEMON_PID/io")"
# 24 bytes a scan (three 32-bit slots and the 64-bit timestamp).
log "lying still: $(((rchar1 - rchar0) / 24)) scans in $WINDOW s ($RESTING_HZ Hz would be $(awk -v r="$RESTING_HZ" -v w="$WINDOW" 'BEGIN { print r * w }'))"
[ $(((rchar1 - rchar0) / 24)) -lt "$WINDOW" ] ||
	fail "lying still with a change sensitivity: the hub still reports about every sample"
t="$(now)"
pick_up hid $((NEUTRAL + TILT))
wait_until 1 "picked up: the change sensitivity back at once" attribute_is "$hdir/in_accel_hysteresis" "$hysteresis_before"
# Held tilted for 1.5 s (the behaviour under test).
sleep 1.5
scrolls_after_pick_up hid "picked up and tilted, with a change sensitivity" "$t"
set_pose hid "$NEUTRAL"
daemon_stop
frames_stop
iio_expect_settings "$hdir" "$before" "the settings of a hub with a change sensitivity"
pass "the capture follows the demand and every setting is restored"
