# shellcheck shell=bash
# Poses: the physical attitude of the display, turned into sensor readings.
#
# Display frame as in the kernel's mount-matrix ABI and iio-sensor-proxy:
# upright reads (0, -g, 0), lying face up (0, 0, -g), left edge up (+g, 0, 0).
# PITCH tilts the top edge away from the user, measured from upright, so
# gravity reads (0, -g cos p, -g sin p): 0 is upright, 90 lying face up, and
# a reading pose is around 30. ROLL raises the left edge (gravity gains +x).
#
# POSE_MATRIX is the mount matrix the daemon is expected to apply (rows split
# by ";", as the hwdb writes it). The sensor must then read M^-1 g so that
# M * reading is the display-frame gravity; mount matrices are orthonormal,
# so M^-1 is M transposed.

POSE_MATRIX="1, 0, 0; 0, 1, 0; 0, 0, 1"
declare -A POSE_CAL

# pose_load_calibration DEVICE: remember the scale and offset of each axis
# in POSE_CAL[DEVICE] as "sx sy sz ox oy oz" (read once: a device that is
# unbound later keeps its chip's calibration).
pose_load_calibration() {
	local device="$1" dir iio a s="" o=""
	[ -n "${POSE_CAL[$device]:-}" ] && return 0
	if [ "$device" = hid ]; then iio=accel_3d; else
		driver_info "$device"
		iio="$DRV_IIO"
	fi
	dir="$(iio_dir "$iio")"
	[ -n "$dir" ] || fail "set_pose: no IIO device $iio to read the scale from"
	for a in x y z; do
		s="$s $(iio_axis_attr "$dir" "$a" scale 1)"
		o="$o $(iio_axis_attr "$dir" "$a" offset 0)"
	done
	POSE_CAL[$device]="${s# }$o"
}

# The pose arithmetic, as awk functions shared by pose_raw and
# pose_timeline: pose_setup(CAL, MATRIX) once, then pose_raw(PITCH, ROLL)
# returns "x y z".
# shellcheck disable=SC2016 # awk code, not shell expansions
POSE_AWK='
function pose_setup(cal, m,    rows, c, i, j) {
	G = 9.80665; RAD = atan2(0, -1) / 180
	gsub(/[ \t]/, "", m)
	if (split(m, rows, ";") != 3) { print "bad POSE_MATRIX" > "/dev/stderr"; exit 1 }
	for (i = 0; i < 3; i++) {
		if (split(rows[i + 1], c, ",") != 3) { print "bad POSE_MATRIX" > "/dev/stderr"; exit 1 }
		for (j = 0; j < 3; j++) M[i, j] = c[j + 1]
	}
	split(cal, K, " ")
}
function pose_raw(p, r,    d, i, j, s, raw, out) {
	# Display-frame gravity for the pose, in g.
	d[0] = sin(r * RAD)
	d[1] = -cos(r * RAD) * cos(p * RAD)
	d[2] = -cos(r * RAD) * sin(p * RAD)
	out = ""
	for (j = 0; j < 3; j++) {
		# The sensor reads M^T * d; value = (raw + offset) * scale.
		s = 0
		for (i = 0; i < 3; i++) s += M[i, j] * d[i]
		raw = s * G / K[j + 1] - K[j + 4]
		raw = raw < 0 ? -int(-raw + 0.5) : int(raw + 0.5)
		out = out (j ? " " : "") raw
	}
	return out
}'

# pose_raw DEVICE PITCH ROLL: the raw readings "x y z" for that pose
# (after pose_load_calibration DEVICE).
pose_raw() {
	awk -v p="$2" -v r="$3" -v cal="${POSE_CAL[$1]}" -v m="$POSE_MATRIX" \
		"$POSE_AWK"' BEGIN { pose_setup(cal, m); print pose_raw(p, r) }'
}

# set_pose DEVICE PITCH [ROLL]: make DEVICE (a stub driver name, or hid for
# the uhid sensor hub) read the pose. Prints nothing; POSE_LAST_RAW holds
# the raw values written.
set_pose() {
	local device="$1" pitch="$2" roll="${3:-0}" x y z
	pose_load_calibration "$device"
	read -r x y z < <(pose_raw "$device" "$pitch" "$roll")
	[ -n "$z" ] || fail "set_pose: cannot compute the pose $pitch $roll"
	POSE_LAST_RAW="$x $y $z"
	if [ "$device" = hid ]; then
		hid_write_values "$POSE_LAST_RAW"
	else
		stub_write_sample "$device" "$x" "$y" "$z"
	fi
}

# pose_timeline DEVICE KEYFRAMES STEP: "MICROSECONDS X Y Z" raw readings
# every STEP seconds, the pitch interpolated linearly between KEYFRAMES
# ("t:pitch t:pitch ...", times ascending) plus a slight hand tremor (two
# sines, 0.3 degrees at most, deterministic so recordings repeat).
pose_timeline() {
	pose_load_calibration "$1"
	awk -v keys="$2" -v step="$3" -v cal="${POSE_CAL[$1]}" -v m="$POSE_MATRIX" "$POSE_AWK"' BEGIN {
		pose_setup(cal, m)
		n = split(keys, k, " ")
		for (i = 1; i <= n; i++) { split(k[i], kv, ":"); T[i] = kv[1]; P[i] = kv[2] }
		pi = atan2(0, -1)
		for (t = 0; t <= T[n] + 1e-9; t += step) {
			i = 1
			while (i < n && T[i + 1] < t) i++
			p = (i < n) ? P[i] + (P[i + 1] - P[i]) * (t - T[i]) / (T[i + 1] - T[i]) : P[n]
			if (t < T[1]) p = P[1]
			p += 0.2 * sin(2 * pi * 7.7 * t) + 0.1 * sin(2 * pi * 2.9 * t + 1)
			printf "%d %s\n", t * 1000000 + 0.5, pose_raw(p, 0)
		}
	}'
}

# pose_sweep DEVICE KEYFRAMES: move DEVICE through the keyframes in real
# time. A stub chip gets a new sample every 20 ms from helpers/stub-sample;
# the HID sensor every 50 ms or as often as the shell manages (its reports
# have 1/100 g steps anyway). Late steps are skipped: the timeline keeps its
# length.
pose_sweep() {
	local device="$1" start us x y z delay sleeper
	if [ "$device" != hid ]; then
		pose_timeline "$device" "$2" 0.02 | stub_play_timeline "$device" 2>>"$RUN_DIR/sweep.log"
		return 0
	fi
	# read -t on a pipe nobody writes to: a sleep without starting a process.
	exec {sleeper}< <(sleep 3600)
	start="${EPOCHREALTIME/./}"
	while read -r us x y z; do
		delay=$((start + us - ${EPOCHREALTIME/./}))
		if [ "$delay" -lt -50000 ]; then
			continue
		fi
		if [ "$delay" -gt 0 ]; then
			read -r -t "$((delay / 1000000)).$(printf '%06d' $((delay % 1000000)))" -u "$sleeper" _ || true
		fi
		hid_write_values "$x $y $z"
	done < <(pose_timeline hid "$2" 0.05)
	exec {sleeper}<&-
}
