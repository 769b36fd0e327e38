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

# pose_raw DEVICE PITCH ROLL: the raw readings "x y z" for that pose
# (after pose_load_calibration DEVICE).
pose_raw() {
	awk -v p="$2" -v r="$3" -v cal="${POSE_CAL[$1]}" -v m="$POSE_MATRIX" 'BEGIN {
		g = 9.80665; rad = atan2(0, -1) / 180
		# Display-frame gravity for the pose.
		d[0] = sin(r * rad)
		d[1] = -cos(r * rad) * cos(p * rad)
		d[2] = -cos(r * rad) * sin(p * rad)
		gsub(/[ \t]/, "", m)
		if (split(m, rows, ";") != 3) { print "bad POSE_MATRIX" > "/dev/stderr"; exit 1 }
		for (i = 0; i < 3; i++) {
			if (split(rows[i + 1], c, ",") != 3) { print "bad POSE_MATRIX" > "/dev/stderr"; exit 1 }
			for (j = 0; j < 3; j++) M[i, j] = c[j + 1]
		}
		split(cal, k, " ")
		out = ""
		for (j = 0; j < 3; j++) {
			# Sensor reading = M^T * display gravity, in m/s^2.
			s = 0
			for (i = 0; i < 3; i++) s += M[i, j] * d[i]
			# value = (raw + offset) * scale  =>  raw = value / scale - offset
			raw = s * g / k[j + 1] - k[j + 4]
			raw = raw < 0 ? -int(-raw + 0.5) : int(raw + 0.5)
			out = out (j ? " " : "") raw
		}
		print out
	}'
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
