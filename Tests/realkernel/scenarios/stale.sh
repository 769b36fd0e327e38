#!/bin/bash
# stale: the HID sensor hub stops reporting while the device is tilted, in
# Mode=buffer (for polling, a sensor that goes away is bad-input's unbind).
#   - Scrolling stops within 250 ms of the stale limit (3 sample periods at
#     SampleRate=50: 60 ms) after the last report the sensor sent, measured
#     from uhid-accel's clock and evread's timestamps; the daemon keeps
#     running and keeps its device.
#   - Reports resume at the same pose: no burst (the gap is not made up, the
#     speed ramps from rest within the acceleration limit); back at neutral,
#     silence.
# And buffer-restore: before the start the sensor is given settings the
# daemon has to change (a slow sampling frequency, a short buffer, only x
# enabled, no trigger, realtime timestamps); while it runs they all differ,
# after SIGTERM each reads exactly as before.
# timeout: 120
set -eu
# shellcheck source=lib.sh
. "$HARNESS_DIR/lib.sh"

STALE_LIMIT=0.06 # 3 periods at the default SampleRate=50
STOP_WITHIN=0.25
FULL_TILT=30 # beyond MaxTilt=25: full speed, 12 detents/s = 1440 units/s

dir="$(hid_start)"
step "settings the daemon must change and put back"
echo 5 >"$dir/in_accel_sampling_frequency"
echo 3 >"$dir/buffer/length"
for a in x y z; do echo 0 >"$dir/scan_elements/in_accel_${a}_en"; done
echo 1 >"$dir/scan_elements/in_accel_x_en"
echo 0 >"$dir/scan_elements/in_timestamp_en"
echo >"$dir/trigger/current_trigger"
echo realtime >"$dir/current_timestamp_clock"
before="$(iio_settings "$dir")"
log "accel_3d before the daemon: $(echo "$before" | tr '\n' ' ')"

set_pose hid "$NEUTRAL"
daemon_start_scrolling stale <<EOF
[Device]
Name=accel_3d
Mode=buffer

[Activation]
When=always
EOF
t="$(now)"
# Held still at the neutral pose (the behaviour under test).
sleep 1.5
expect_silence "at rest at the neutral pose" "$t" "$(now)"

# Every setting prepared above must now differ: the restore check below then
# compares values the daemon really changed.
changed="$(diff <(echo "$before") <(iio_settings "$dir") | sed -n 's/^> //p' | cut -d= -f1 | sort | tr '\n' ' ')"
log "changed while the daemon runs: $changed"
want="buffer/enable buffer/length current_timestamp_clock in_accel_sampling_frequency scan_elements/in_accel_y_en scan_elements/in_accel_z_en scan_elements/in_timestamp_en trigger/current_trigger "
[ "$changed" = "$want" ] || fail "the daemon changed '$changed'; a buffered capture from this state must change exactly '$want'"

step "the sensor stalls while tilted: scrolling stops"
hold hid $((NEUTRAL + FULL_TILT)) 2
expect_scroll "$FULL_TILT degrees away" - "$(fadd "$HOLD_FROM" 1)" "$HOLD_TO" >/dev/null
last_report="$(hid_pause)"
# Stalled for 1.5 s, still tilted (the behaviour under test).
sleep 1.5
last_frame="$(awk -v a="$(fadd "$last_report" -1)" '$1 == "frame" && $2 >= a { t = $2 } END { print t }' "$FRAMES")"
[ -n "$last_frame" ] || fail "no frame in the second before the stall: it was not scrolling"
# Not vacuous: it was still scrolling up to the stall.
fcmp "$last_frame" ">" "$(fadd "$last_report" -0.1)" ||
	fail "the last frame came $(awk -v a="$last_report" -v b="$last_frame" 'BEGIN { printf "%.3f", a - b }') s before the last report: it had stopped before the stall"
limit="$(fadd "$last_report" "$(fadd "$STALE_LIMIT" "$STOP_WITHIN")")"
fcmp "$last_frame" "<=" "$limit" ||
	fail "the last frame came $(awk -v a="$last_frame" -v b="$last_report" 'BEGIN { printf "%.3f", a - b }') s after the last report, more than $STALE_LIMIT + $STOP_WITHIN s"
log "last report at $last_report, last frame $(awk -v a="$last_frame" -v b="$last_report" 'BEGIN { printf "%.3f", a - b }') s later (limit $STALE_LIMIT + $STOP_WITHIN)"
expect_silence "from the limit on, still tilted, no reports" "$limit" "$(now)"
daemon_alive || fail "the daemon exited when its sensor went silent"
device_exists || fail "the daemon removed its device when its sensor went silent"

step "reports resume at the same pose: no burst"
resumed="$(hid_resume)"
# Reporting again for 1.5 s at the same pose (the behaviour under test).
sleep 1.5
# From rest at the acceleration limit (60 detents/s^2), 150 ms make at most
# 0.5 * 60 * 0.15^2 detents = 81 units; full speed would make 216, and one
# frame of it (60 Hz) 24. A burst, or a speed kept from before the stall,
# breaks one of the two bounds.
read -r n hires _ < <(frames_window "$resumed" "$(fadd "$resumed" 0.15)")
first="$(awk -v a="$resumed" '$1 == "frame" && $2 >= a { print $3; exit }' "$FRAMES")"
log "after the resume: first frame ${first:-none}, $n frames and $hires units in 150 ms"
[ "${hires#-}" -le 108 ] || fail "$hires hi-res units within 150 ms of the resume: a burst (at most 108, half of full speed)"
first="${first:-0}"
[ "${first#-}" -le 12 ] || fail "the first frame after the resume carries $first units: a jump (at most 12, half a frame at full speed)"
read -r n hires _ < <(frames_window "$(fadd "$resumed" 0.5)" "$(fadd "$resumed" 1.5)")
log "from 0.5 s to 1.5 s after the resume, still at $FULL_TILT degrees away: $n frames, $hires units"
hold hid "$NEUTRAL" 1.5
expect_silence "back at neutral, from 0.5 s on" "$(fadd "$HOLD_FROM" 0.5)" "$HOLD_TO"

step "SIGTERM: every setting as before the start (buffer-restore)"
daemon_stop
frames_stop
frames_check_shape
iio_expect_settings "$dir" "$before" "accel_3d settings after SIGTERM"
log "restored exactly: $(echo "$before" | tr '\n' ' ')"
pass "scrolling stops on a stalled sensor within the limit and resumes without a burst; buffered settings restored exactly"
