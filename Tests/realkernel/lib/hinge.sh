# shellcheck shell=bash
# A 360-degree convertible with no tablet-mode switch (issue 25): one
# accelerometer in the display and one in the base, both on i2c-stub, held
# by one hand.
#
# The frames are systemd's (hwdb.d/60-sensor.hwdb, ACCEL_LOCATION): each
# reading through its own mount matrix; the display's axes are the pose
# library's (x to the right edge, along the hinge; y to the top edge; z out
# of the screen), and with the lid closed the base reads exactly what the
# display reads. Opening the lid by HINGE degrees turns the display about x
# against the base, so the one gravity the display reads as d (its pose,
# lib/pose.sh) the base reads as Rx(-HINGE) d. The base's part is mounted
# turned (HINGE_BASE_MATRIX, given to udev as ACCEL_MOUNT_MATRIX, as a hwdb
# quirk would): it reads M^T Rx(-HINGE) d, which is what its hand is told
# to present by giving it the matrix Rx(HINGE) M (POSE_MATRIX_OF).
#
# Where the drivers cannot label their device (a sysfs `label` of
# accel-display or accel-base comes from ACPI, which an i2c-stub device has
# none of), a udev rule sets ACCEL_LOCATION, as systemd's hwdb does on real
# machines.
#
# Both hands move in step (POSE_MOTION_OF: the same motion, each part its
# own noise): one hand holds the whole device, so only the noise and the
# moments the two parts are read at tell the halves apart.

HINGE_DISPLAY=kxcjk
HINGE_BASE=bmc150
# A proper rotation that is not its own transpose: a matrix applied the
# wrong way round reads another angle.
HINGE_BASE_MATRIX="0, -1, 0; 0, 0, 1; -1, 0, 0"

# POSE_MOTION_OF and POSE_MATRIX_OF are pose.sh's associative arrays, read there.
# shellcheck disable=SC2004,SC2034
# hinge_start: both chips on the stub, their locations (label or udev
# rule), udevd running with the rules and the base's matrix applied. Sets
# HINGE_DISPLAY_DIR, HINGE_BASE_DIR (sysfs) and HINGE_*_LOCATION_SOURCE
# (label or udev).
hinge_start() {
	local display_iio base_iio epoch rules matrix
	stub_load "$HINGE_DISPLAY" "$HINGE_BASE"
	HINGE_DISPLAY_DIR="$(stub_add "$HINGE_DISPLAY")"
	HINGE_BASE_DIR="$(stub_add "$HINGE_BASE")"
	driver_info "$HINGE_DISPLAY"
	display_iio="$DRV_IIO"
	driver_info "$HINGE_BASE"
	base_iio="$DRV_IIO"
	# hinge_read takes the display's readings as they are.
	read -r matrix <"$HINGE_DISPLAY_DIR/in_accel_mount_matrix" || matrix=none
	[ "$matrix" = "1, 0, 0; 0, 1, 0; 0, 0, 1" ] || fail "the display's sysfs mount matrix is '$matrix', not the identity"
	rules="# Test only: where each accelerometer sits, and the base's mount matrix."$'\n'
	if hinge_label_is "$HINGE_DISPLAY_DIR" accel-display; then
		HINGE_DISPLAY_LOCATION_SOURCE=label
	else
		HINGE_DISPLAY_LOCATION_SOURCE=udev
		rules+="ACTION!=\"remove\", SUBSYSTEM==\"iio\", ATTR{name}==\"$display_iio\", ENV{ACCEL_LOCATION}=\"display\""$'\n'
	fi
	if hinge_label_is "$HINGE_BASE_DIR" accel-base; then
		HINGE_BASE_LOCATION_SOURCE=label
	else
		HINGE_BASE_LOCATION_SOURCE=udev
		rules+="ACTION!=\"remove\", SUBSYSTEM==\"iio\", ATTR{name}==\"$base_iio\", ENV{ACCEL_LOCATION}=\"base\""$'\n'
	fi
	rules+="ACTION!=\"remove\", SUBSYSTEM==\"iio\", ATTR{name}==\"$base_iio\", ENV{ACCEL_MOUNT_MATRIX}=\"$HINGE_BASE_MATRIX\""
	udev_add_rule 61-tiltscroll-test-hinge.rules <<<"$rules"
	log "display: $HINGE_DISPLAY_DIR ($display_iio, location by $HINGE_DISPLAY_LOCATION_SOURCE);" \
		"base: $HINGE_BASE_DIR ($base_iio, location by $HINGE_BASE_LOCATION_SOURCE)"
	udevd_start
	HINGE_DISPLAY_SCALE="$(iio_axis_attr "$HINGE_DISPLAY_DIR" x scale 1)"
	HINGE_BASE_SCALE="$(iio_axis_attr "$HINGE_BASE_DIR" x scale 1)"
	epoch="$("$HELPERS_DIR/monotime")"
	POSE_MOTION_OF[$HINGE_DISPLAY]="$POSE_SEED $epoch"
	POSE_MOTION_OF[$HINGE_BASE]="$POSE_SEED $epoch"
}

# hinge_label_is DIR LABEL: whether the driver labelled the device LABEL.
hinge_label_is() {
	local label=""
	[ -r "$1/label" ] && read -r label <"$1/label"
	[ "$label" = "$2" ]
}

# hinge_base_matrix HINGE: the matrix the base's hand presents its pose
# through, Rx(HINGE) HINGE_BASE_MATRIX, in the hwdb's form.
hinge_base_matrix() {
	awk -v h="$1" -v m="$HINGE_BASE_MATRIX" 'BEGIN {
		gsub(/;/, ",", m)
		split(m, b, ",")
		r = h * atan2(0, -1) / 180
		c = cos(r); s = sin(r)
		for (j = 1; j <= 3; j++) {
			row1[j] = b[j]
			row2[j] = c * b[3 + j] - s * b[6 + j]
			row3[j] = s * b[3 + j] + c * b[6 + j]
		}
		printf "%.9f, %.9f, %.9f; %.9f, %.9f, %.9f; %.9f, %.9f, %.9f\n", row1[1], row1[2], row1[3], row2[1], row2[2], row2[3], row3[1], row3[2], row3[3]
	}'
}

# shellcheck disable=SC2004,SC2034 # pose.sh's POSE_MATRIX_OF; the raw values are for the caller
# set_hinge HINGE PITCH [ROLL]: the display at the pose PITCH, ROLL (as
# set_pose; a ROLL near 90 turns the hinge towards vertical), the lid open
# by HINGE degrees (0 closed, about 110 a laptop, 180 flat, 270-320 a tent
# or stand, 360 folded flat). Both hands present it from now on, held as
# pose_hold says; HINGE_DISPLAY_RAW and HINGE_BASE_RAW are the raw values
# of the pose without motion or noise.
set_hinge() {
	local hinge="$1" pitch="$2" roll="${3:-0}"
	POSE_MATRIX_OF[$HINGE_BASE]="${HINGE_MATRIX_GIVEN:-$(hinge_base_matrix "$hinge")}"
	set_pose "$HINGE_DISPLAY" "$pitch" "$roll"
	HINGE_DISPLAY_RAW="$POSE_LAST_RAW"
	set_pose "$HINGE_BASE" "$pitch" "$roll"
	HINGE_BASE_RAW="$POSE_LAST_RAW"
}

# hinge_sweep FROM TO SECONDS PITCH [ROLL]: the lid turned from FROM to TO
# degrees over SECONDS, eased as a hand moves (a cosine), the display held
# at PITCH, ROLL: a new angle every 0.1 s. The angles and their matrices
# are worked out first, and the steps wait with a builtin: no process per
# step, which under TCG would take longer than the step.
hinge_sweep() {
	local from="$1" to="$2" seconds="$3" pitch="$4" roll="${5:-0}" angle matrix sleeper
	exec {sleeper}< <(sleep 3600)
	while read -r angle matrix; do
		HINGE_MATRIX_GIVEN="$matrix" set_hinge "$angle" "$pitch" "$roll"
		read -r -t 0.1 -u "$sleeper" _ || true
	done < <(awk -v a="$from" -v b="$to" -v s="$seconds" -v m="$HINGE_BASE_MATRIX" '
		function matrix(h,   r, c, t, j, row2, row3) {
			r = h * atan2(0, -1) / 180; c = cos(r); t = sin(r)
			for (j = 1; j <= 3; j++) { row2[j] = c * mb[3 + j] - t * mb[6 + j]; row3[j] = t * mb[3 + j] + c * mb[6 + j] }
			return sprintf("%s, %s, %s; %.9f, %.9f, %.9f; %.9f, %.9f, %.9f", mb[1], mb[2], mb[3],
				row2[1], row2[2], row2[3], row3[1], row3[2], row3[3])
		}
		BEGIN {
			gsub(/;/, ",", m); split(m, mb, ",")
			n = int(s * 10 + 0.5); if (n < 1) n = 1
			for (i = 1; i <= n; i++) {
				h = a + (b - a) * (1 - cos(atan2(0, -1) * i / n)) / 2
				printf "%.3f %s\n", h, matrix(h)
			}
		}')
	exec {sleeper}<&-
}

# hinge_read [EXPECTED]: both devices' readings from sysfs, through their
# scales and mount matrices (the display's is the identity, hinge_start
# checks; the base's is HINGE_BASE_MATRIX, udev's), in g, and the hinge
# angle they show, as one line:
#   "DX DY DZ BX BY BZ ANGLE ACROSS OFF PITCH"
# ANGLE in [0, 360); ACROSS the lesser of the two components of gravity
# across the hinge (y-z), g: below 0.5 the hinge is near vertical; OFF how
# far ANGLE is from EXPECTED around the circle (0 without one); PITCH the
# display's pitch (lib/pose.sh). One process.
hinge_read() {
	local d b
	d="$(iio_raw "$HINGE_DISPLAY_DIR")" || fail "reading the display's raw values"
	b="$(iio_raw "$HINGE_BASE_DIR")" || fail "reading the base's raw values"
	hinge_compute "$d" "$b" "${1:-}"
}

# hinge_compute "DISPLAY RAW" "BASE RAW" [EXPECTED]: hinge_read's line for raw values.
hinge_compute() {
	awk -v d="$1" -v b="$2" -v e="$3" -v sd="$HINGE_DISPLAY_SCALE" -v sb="$HINGE_BASE_SCALE" \
		-v m="$HINGE_BASE_MATRIX" 'BEGIN {
		g = 9.80665; pi = atan2(0, -1)
		split(d, dr, " "); split(b, br, " ")
		gsub(/;/, ",", m); split(m, mb, ",")
		for (i = 1; i <= 3; i++) { dv[i] = dr[i] * sd / g; braw[i] = br[i] * sb / g }
		for (i = 1; i <= 3; i++) bv[i] = mb[3 * i - 2] * braw[1] + mb[3 * i - 1] * braw[2] + mb[3 * i] * braw[3]
		angle = atan2(bv[2] * dv[3] - bv[3] * dv[2], bv[2] * dv[2] + bv[3] * dv[3]) * 180 / pi
		if (angle < 0) angle += 360
		da = sqrt(dv[2] ^ 2 + dv[3] ^ 2); ba = sqrt(bv[2] ^ 2 + bv[3] ^ 2)
		off = 0
		if (e != "") { off = angle - e; while (off > 180) off -= 360; while (off <= -180) off += 360; if (off < 0) off = -off }
		printf "%.4f %.4f %.4f %.4f %.4f %.4f %.3f %.4f %.3f %.3f\n", dv[1], dv[2], dv[3], bv[1], bv[2], bv[3],
			angle, (da < ba ? da : ba), off, atan2(-dv[3], -dv[2]) * 180 / pi
	}'
}
