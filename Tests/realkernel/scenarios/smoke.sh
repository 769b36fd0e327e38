#!/bin/bash
# smoke: the harness itself, no daemon. Every driver probes on the stub and
# its in_accel_*_raw follow the registers written for a pose; the uhid sensor
# hub becomes accel_3d and its buffer delivers scans with the values sent;
# the hands (lib/pose.sh) present a pose as a table does (noise of a few LSB
# around it) and as a hand does (sway a table does not show, never more
# than 2 degrees off), and a pose set is in force when set_pose returns;
# uinput frames written by one process are read back exactly by evread; a
# uinput tablet-mode switch reports the state it was given.
# timeout: 240
set -eu
# shellcheck source=lib.sh
. "$HARNESS_DIR/lib.sh"

DRIVERS="kxcjk lis3dh da280 bmc150 mxc4005"
# Register values are compared exactly unless a check says otherwise.
POSE_HOLD=fixed

# expect_raw DIR WANT: in_accel_*_raw must read exactly WANT ("x y z").
expect_raw() {
	local got
	got="$(iio_raw "$1")"
	[ "$got" = "$2" ] || fail "$(cat "$1/name"): in_accel_*_raw read '$got', registers hold '$2'"
}

# raw_samples DIR SECONDS: "TIME X Y Z" from in_accel_*_raw every 50 ms or
# so, for SECONDS (shell builtins only; the pause is a read that times out
# on a pipe nobody writes to).
raw_samples() {
	local dir="$1" end x y z pause
	exec {pause}< <(sleep 3600)
	end=$((${EPOCHREALTIME/./} + $(usec "$2")))
	while [ "${EPOCHREALTIME/./}" -lt "$end" ]; do
		read -r x <"$dir/in_accel_x_raw"
		read -r y <"$dir/in_accel_y_raw"
		read -r z <"$dir/in_accel_z_raw"
		echo "$EPOCHREALTIME $x $y $z"
		read -r -t 0.05 -u "$pause" _ || true
	done
	exec {pause}<&-
}

# pose_stats FILE PITCH RAW: of the samples in FILE (raw_samples), with the
# pose's own raw values RAW: "COUNT DISTINCT MAX_OFF MEAN_OFF MAX_LSB
# SWAY": how many, how many different, the largest and the mean pitch off
# PITCH (degrees), the largest difference from RAW on any axis (LSB), and
# the range of the one-second means of the pitch (degrees; seconds with ten
# samples or more): the sway, which averages the noise away.
pose_stats() {
	awk -v want="$2" -v raw="$3" '
		BEGIN { split(raw, r, " "); deg = 180 / atan2(0, -1) }
		{
			p = atan2(-$4, -$3) * deg; off = p - want
			if (!seen[$2 " " $3 " " $4]++) distinct++
			if (n == 0) t0 = $1
			n++; sum += off; if (off < 0) off = -off; if (off > max) max = off
			for (a = 1; a <= 3; a++) { d = $(a + 1) - r[a]; if (d < 0) d = -d; if (d > lsb) lsb = d }
			w = int($1 - t0); ws[w] += p; wn[w]++
		}
		END {
			first = 1
			for (w in ws) {
				if (wn[w] < 10) continue # the last second, cut short
				m = ws[w] / wn[w]; if (first || m < lo) lo = m; if (first || m > hi) hi = m; first = 0
			}
			printf "%d %d %.2f %.2f %d %.2f\n", n, distinct, max, sum / n, lsb, hi - lo
		}' "$1"
}

# hold_check DEVICE DIR HOLD SECONDS: the device held at 30 degrees as HOLD
# for SECONDS, read back; HOLD_STATS is pose_stats of what was read.
hold_check() {
	pose_hold "$1" "$3"
	set_pose "$1" 30
	raw_samples "$2" "$4" >"$RUN_DIR/hold-$1-$3.txt"
	HOLD_STATS="$(pose_stats "$RUN_DIR/hold-$1-$3.txt" 30 "$POSE_LAST_RAW")"
	log "$1 held as $3 at 30 degrees, raw $POSE_LAST_RAW: $(echo "$HOLD_STATS" |
		awk '{ printf "%d samples, %d distinct, pitch off by %.2f at most (%.2f mean), %d LSB at most, one-second means range %.2f degrees", $1, $2, $3, $4, $5, $6 }')"
}

step "drivers on i2c-stub: probe, attributes, raw values follow the registers"
# shellcheck disable=SC2086
stub_load $DRIVERS
for d in $DRIVERS; do
	dir="$(stub_add "$d")"
	driver_info "$d"
	log "$d: $DRV_DEVICE probed as $(basename "$dir") ($(cat "$dir/name"))"
	case "$d" in
	kxcjk)
		if [ ! -r "$dir/in_accel_scale" ] || [ ! -r "$dir/in_accel_mount_matrix" ]; then
			fail "kxcjk: expected shared in_accel_scale and in_accel_mount_matrix"
		fi
		;;
	lis3dh)
		if [ ! -r "$dir/in_accel_x_scale" ] || [ -e "$dir/in_accel_scale" ] || [ ! -r "$dir/mount_matrix" ]; then
			fail "lis3dh: expected per-axis scale, no shared scale, and mount_matrix"
		fi
		freq="$(cat "$dir/sampling_frequency")"
		[ "$freq" = 1 ] || fail "lis3dh: sampling_frequency defaults to '$freq', expected 1"
		# At 1 Hz every raw read sleeps ~2 s; this scenario only checks values.
		echo 100 >"$dir/sampling_frequency"
		;;
	da280)
		[ -z "$(iio_sampling_frequency_file "$dir")" ] || fail "da280: unexpected sampling frequency attribute"
		;;
	esac
	for pose in "30 0" "55 -12" "0 0"; do
		# shellcheck disable=SC2086
		set_pose "$d" $pose
		expect_raw "$dir" "$POSE_LAST_RAW"
	done
	log "$d: scale $(iio_axis_attr "$dir" x scale 1), pitch 55 roll -12 reads as written; last $POSE_LAST_RAW"
done
pass "5 drivers follow their registers"

step "the hand of kxcjk-1013: a table, a hand, a pose in force when set_pose returns"
kx="$(iio_dir kxcj91008)"
hold_check kxcjk "$kx" table 6
read -r n distinct off mean lsb sway <<<"$HOLD_STATS"
[ "$n" -ge 40 ] || fail "table: only $n samples in 6 s"
[ "$distinct" -gt 1 ] || fail "table: every sample the same: no sensor noise"
[ "$lsb" -le 8 ] || fail "table: a sample $lsb LSB off the pose: more than a few LSB of noise"
fcmp "${mean#-}" "<" 0.3 || fail "table: the pitch is off by $mean degrees on average"
fcmp "$sway" "<" 0.25 || fail "table: the one-second means of the pitch range over $sway degrees: that is not lying still"
hold_check kxcjk "$kx" hand 6
read -r n distinct off mean lsb sway <<<"$HOLD_STATS"
[ "$n" -ge 40 ] || fail "hand: only $n samples in 6 s"
fcmp "$off" "<=" 2 || fail "hand: the pitch strays $off degrees off the pose (the dead zone at rest is 4)"
fcmp "$sway" ">=" 0.25 || fail "hand: the one-second means of the pitch range over only $sway degrees: no sway"
set_pose kxcjk 60
raw_samples "$kx" 0 >"$RUN_DIR/step.txt"
read -r _ _ off _ <<<"$(pose_stats "$RUN_DIR/step.txt" 60 "$POSE_LAST_RAW")"
fcmp "$off" "<=" 2 || fail "hand: read $off degrees off 60 right after set_pose 60: the step is not in the registers"
log "right after set_pose 60 in the hand: $off degrees off"
pose_hold kxcjk fixed
expect_raw "$kx" "$POSE_LAST_RAW"
pass "kxcjk-1013's hand: noise of a few LSB on the table, sway in the hand, steps in force at once, exact when fixed"

step "HID sensor hub through uhid: accel_3d, raw reads, buffered scans"
hid="$(hid_start)"
log "uhid sensor hub probed as $(basename "$hid"): scale $(cat "$hid/in_accel_scale"), trigger $(cat "$hid/trigger/current_trigger")"
set_pose hid 30
expect_raw "$hid" "$POSE_LAST_RAW"
for a in x y z; do
	t="$(cat "$hid/scan_elements/in_accel_${a}_type")"
	[ "$t" = "le:s16/32>>0" ] || fail "accel_3d: in_accel_${a}_type is '$t', the decoder below expects le:s16/32>>0"
	echo 1 >"$hid/scan_elements/in_accel_${a}_en"
done
[ "$(cat "$hid/scan_elements/in_timestamp_type")" = "le:s64/64>>0" ] || fail "accel_3d: unexpected timestamp type"
echo 1 >"$hid/scan_elements/in_timestamp_en"
echo 50 >"$hid/in_accel_sampling_frequency"
echo 64 >"$hid/buffer/length"
echo 1 >"$hid/buffer/enable"
set_pose hid 42 7
node="/dev/$(basename "$hid")"
timeout -s INT 2 cat "$node" >"$RUN_DIR/hid-scans.bin" || true
echo 0 >"$hid/buffer/enable"
# Scan: x, y, z each in a 32-bit slot (low 16 bits are the value), then the
# 64-bit timestamp at offset 16: 24 bytes. od prints 12 int16 per scan.
scans=$(($(stat -c %s "$RUN_DIR/hid-scans.bin") / 24))
last="$(od -A n -t d2 -w24 -v "$RUN_DIR/hid-scans.bin" | tail -n 1 | awk '{ print $1, $3, $5 }')"
log "buffer: $scans scans in 2 s, last $last"
[ "$scans" -ge 40 ] || fail "accel_3d buffer delivered $scans scans in 2 s at 50 Hz"
[ "$last" = "$POSE_LAST_RAW" ] || fail "accel_3d buffer: last scan '$last', sensor sends '$POSE_LAST_RAW'"
pass "HID sensor hub: raw and buffered values match what the sensor sent"

step "the hand of the HID sensor hub (uhid-accel): a table, a hand"
hold_check hid "$hid" table 3
read -r n _ _ _ lsb _ <<<"$HOLD_STATS"
[ "$n" -ge 20 ] || fail "HID table: only $n samples in 3 s"
[ "$lsb" -le 1 ] || fail "HID table: a sample $lsb units off the pose: more than the rounding of a few mg"
hold_check hid "$hid" hand 4
read -r n distinct off _ _ _ <<<"$HOLD_STATS"
[ "$distinct" -gt 1 ] || fail "HID hand: every report the same"
fcmp "$off" "<=" 2.5 || fail "HID hand: the pitch strays $off degrees off the pose"
pose_hold hid fixed
expect_raw "$hid" "$POSE_LAST_RAW"
pass "the HID sensor hub's hand: within a unit on the table, moving in the hand, exact when fixed"

step "uinput round trip: frames written with libevdev are read back exactly"
modprobe uinput
modprobe evdev
"$HELPERS_DIR/evread" frames --timeout 10 >"$RUN_DIR/frames.txt" &
reader=$!
diag_file "$RUN_DIR/frames.txt"
# The writer's end of the fifo is opened last, so no other child inherits it
# and uinput-wheel sees end of input when this script closes it.
mkfifo /tmp/wheel.fifo
"$HELPERS_DIR/uinput-wheel" </tmp/wheel.fifo >"$RUN_DIR/wheel.out" &
wheel=$!
exec 3>/tmp/wheel.fifo
wait_until 10 "evread to open the device" grep -q '^ready ' "$RUN_DIR/frames.txt"
"$HELPERS_DIR/evread" caps >"$RUN_DIR/caps.txt" || { cat "$RUN_DIR/caps.txt"; fail "caps of a correct wheel device rejected"; }
cat "$RUN_DIR/caps.txt"
# The pause lets evread take every frame before the device is destroyed:
# the kernel drops events still queued for a reader of a vanished device.
printf '120 1\n-60 0\n-60 -1\n37 0\nsleep 0.5\n' >&3
exec 3>&-
wait_exit "$wheel" 10
[ "$EXIT_STATUS" = 0 ] || fail "uinput-wheel: $EXIT_STATUS"
wait_exit "$reader" 10
[ "$EXIT_STATUS" = 0 ] || fail "evread frames: $EXIT_STATUS"
"$HELPERS_DIR/evread" gone --timeout 5 || fail "the device is still there after uinput-wheel exited"
got="$(awk '$1 == "frame" { printf "%s %s;", $3, $4 }' "$RUN_DIR/frames.txt")"
[ "$got" = "120 1;-60 0;-60 -1;37 0;" ] || fail "frames read back as '$got'"
grep -q '^gone ' "$RUN_DIR/frames.txt" || fail "evread did not notice the device going away"
grep -q '^summary frames=4 hires=37 wheel=0 .* dropped=0 other=0$' "$RUN_DIR/frames.txt" ||
	fail "unexpected summary: $(grep summary "$RUN_DIR/frames.txt")"
pass "4 frames round-tripped; evread saw the device appear and go"

# evread caps must also be able to fail: a wheel on the USB bus is not ours.
exec 3> >("$HELPERS_DIR/uinput-wheel" --bus 0x03 >/dev/null)
"$HELPERS_DIR/evread" wait >/dev/null
if "$HELPERS_DIR/evread" caps >"$RUN_DIR/caps-usb.txt"; then
	fail "evread caps accepted a device on the USB bus"
fi
grep -q 'bus 0x03, want BUS_VIRTUAL' "$RUN_DIR/caps-usb.txt" || fail "evread caps did not name the bus problem"
exec 3>&-
"$HELPERS_DIR/evread" gone --timeout 5
pass "evread caps rejects a device with the wrong bus"

step "uinput tablet-mode switch"
mkfifo /tmp/switch.fifo
"$HELPERS_DIR/uinput-switch" --state 1 </tmp/switch.fifo >"$RUN_DIR/switch.out" &
switch=$!
exec 4>/tmp/switch.fifo
wait_until 10 "the switch device" grep -q '^created ' "$RUN_DIR/switch.out"
sw_node="$(awk '{ print $2 }' "$RUN_DIR/switch.out")"
# evtest --query exits 10 when the switch is on, 0 when off.
query() {
	local s=0
	evtest --query "$sw_node" EV_SW SW_TABLET_MODE || s=$?
	echo "$s"
}
[ "$(query)" = 10 ] || fail "the switch created in tablet mode does not report it"
echo 0 >&4
wait_until 5 "SW_TABLET_MODE to read 0" test "$(query)" = 0
echo 1 >&4
wait_until 5 "SW_TABLET_MODE to read 1" test "$(query)" = 10
exec 4>&-
wait_exit "$switch" 10
[ "$EXIT_STATUS" = 0 ] || fail "uinput-switch: $EXIT_STATUS"
pass "SW_TABLET_MODE follows the helper"
