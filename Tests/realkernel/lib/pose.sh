# shellcheck shell=bash
# Poses: the physical attitude of the display, presented to a sensor the
# way a hand (or a table) presents it.
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
#
# Each sensor has a hand: a helper that keeps presenting the last pose set,
# sample after sample, held one of three ways (helpers/hand.h has the model
# and its sources):
#   hand   held in a hand (the default): postural sway below 1 Hz (at most
#          1 degree in pitch, 0.75 in roll), physiological tremor of 0.05-0.2
#          degrees at 8-12 Hz, and the sensor's noise;
#   table  lying still: the sensor's noise only (POSE_NOISE_MG, a few mg
#          rms: about 1.5 LSB on kxcjk-1013, mostly hidden by the 10 mg steps
#          of the HID sensor hub);
#   fixed  the exact raw values of the pose, nothing else (for checks that
#          compare register values).
# Together at most 1.2 degrees off the pose in pitch: a hand held "still"
# stays well inside the daemon's 4 degree dead zone.
#
# A stub chip's hand is helpers/hand (started by the first set_pose, POSE_RATE
# samples a second into the registers), the HID sensor hub's is
# helpers/uhid-accel itself (hid_start; each report is a sample). Both take
# commands on a FIFO and answer each one on another (hand.h): set_pose
# returns once the pose is in force (a stub's registers hold it; the HID
# sensor's next report carries it, within one report interval), and talks to
# them with shell builtins only, no process per pose.

POSE_MATRIX="1, 0, 0; 0, 1, 0; 0, 0, 1"
# How poses are held unless pose_hold said otherwise for the device.
POSE_HOLD=hand
# Sensor noise, mg rms: "a few mg" for a device on a table (the notes); a
# device's own figure in POSE_NOISE_MG_OF[DEVICE].
POSE_NOISE_MG=3
# Seeds the motion and the noise: the same seed, the same hand.
POSE_SEED=1
# Samples a second a stub chip's hand stores (the daemon's default SampleRate).
POSE_RATE=50
POSE_HANDS_DIR=/run/tiltscroll-test/hands
# How long a put-down lowers the device, and a pick-up lifts it, seconds.
POSE_CARRY_SECONDS=0.8
# A device's own matrix in POSE_MATRIX_OF[DEVICE] (the base of a convertible,
# lib/hinge.sh); its hand's motion in step with another's in
# POSE_MOTION_OF[DEVICE]="SEED EPOCH" (hand.h, "One hand, two sensors"),
# both before the first set_pose.
declare -A POSE_CAL POSE_HOLD_OF POSE_NOISE_MG_OF POSE_MATRIX_OF POSE_MOTION_OF
POSE_SENT=0

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

# pose_seed DEVICE: POSE_SEED mixed with the device's name (POSE_SEED_OUT),
# so two sensors of one scenario do not move in step.
pose_seed() {
	local i c
	POSE_SEED_OUT="$POSE_SEED"
	for ((i = 0; i < ${#1}; i++)); do
		printf -v c '%d' "'${1:i:1}"
		POSE_SEED_OUT=$(((POSE_SEED_OUT * 31 + c) % 2147483647))
	done
}

# pose_noise_mg DEVICE: the noise figure the device's hand is started with.
pose_noise_mg() {
	echo "${POSE_NOISE_MG_OF[$1]:-$POSE_NOISE_MG}"
}

# pose_hand_log DEVICE: where the device's hand writes its messages.
pose_hand_log() {
	echo "${RUN_DIR:-$POSE_HANDS_DIR}/hand-$1.err"
}

# pose_hand_start DEVICE: start the hand of a stub chip (after stub_add,
# which gives the scale) and wait until it takes commands.
pose_hand_start() {
	local device="$1" dir="$POSE_HANDS_DIR/$1" cal log motion=()
	pose_load_calibration "$device"
	read -ra cal <<<"${POSE_CAL[$device]}"
	driver_info "$device"
	pose_seed "$device"
	mkdir -p "$dir"
	log="$(pose_hand_log "$device")"
	if [ -n "${POSE_MOTION_OF[$device]:-}" ]; then
		read -ra motion <<<"${POSE_MOTION_OF[$device]}"
		motion=(--motion-seed "${motion[0]}" --epoch "${motion[1]}")
	fi
	"$HELPERS_DIR/hand" stream --control "$dir" \
		--i2c "$STUB_BUS" "$DRV_ADDR" "$DRV_DATA" "$DRV_ENDIAN" "$DRV_SHIFT" "$DRV_BITS" "$DRV_READS" \
		--scale "${cal[@]:0:3}" --offset "${cal[@]:3:3}" --noise-mg "$(pose_noise_mg "$device")" \
		--rate "$POSE_RATE" --seed "$POSE_SEED_OUT" "${motion[@]}" </dev/null >"$dir/out" 2>"$log" &
	echo $! >"$dir/pid"
	diag_file "$log"
	wait_until 10 "the hand of $device to take commands" grep -q '^ready' "$dir/out"
}

# pose_send DEVICE WORDS...: one command to the device's hand (hand.h);
# POSE_ANSWER is its answer (for pose and hold: the raw values "x y z" of
# the pose without motion or noise). Fails when the hand is not running or
# does not answer within 5 s.
pose_send() {
	local device="$1" dir="$POSE_HANDS_DIR/$1" seq answer=""
	shift
	[ -p "$dir/cmd" ] || fail "pose: $device has no hand (a stub chip gets one with set_pose, the HID sensor with hid_start)"
	# Unique across subshells too: an answer left by another is skipped.
	POSE_SENT=$((POSE_SENT + 1))
	seq="$BASHPID.$POSE_SENT"
	# Both FIFOs opened read-write: open() never waits for the other side.
	printf '%s %s\n' "$seq" "$*" 1<>"$dir/cmd"
	until [ "${answer%% *}" = "$seq" ]; do
		read -r -t 5 answer <>"$dir/ack" ||
			fail "pose: the hand of $device did not answer '$*' within 5 s (see $(pose_hand_log "$device"))"
	done
	POSE_ANSWER="${answer#* }"
	case "$POSE_ANSWER" in
	error*) fail "pose: the hand of $device refused '$*': $POSE_ANSWER" ;;
	esac
}

# set_pose DEVICE PITCH [ROLL]: DEVICE (a stub driver name, or hid for the
# uhid sensor hub) presents the pose from now on, held as pose_hold says.
# Prints nothing; POSE_LAST_RAW holds the raw values of the pose itself
# (without motion or noise: what a fixed hold stores).
set_pose() {
	local device="$1" pitch="$2" roll="${3:-0}" matrix="${POSE_MATRIX_OF[$1]:-$POSE_MATRIX}"
	if [ "$device" != hid ] && [ ! -p "$POSE_HANDS_DIR/$device/cmd" ]; then
		pose_hand_start "$device"
	fi
	# shellcheck disable=SC2086 # the matrix as nine words
	pose_send "$device" pose "${POSE_HOLD_OF[$device]:-$POSE_HOLD}" "$pitch" "$roll" ${matrix//[,;]/ }
	# shellcheck disable=SC2034 # for the caller
	POSE_LAST_RAW="$POSE_ANSWER"
}

# pose_hold DEVICE hand|table|fixed: how DEVICE holds its poses from now
# on, at once for the pose it presents (no jump: the same pose, without the
# motion or the noise it no longer has).
pose_hold() {
	case "$2" in
	hand | table | fixed) ;;
	*) fail "pose_hold: hand, table or fixed, not '$2'" ;;
	esac
	POSE_HOLD_OF[$1]="$2"
	if [ -p "$POSE_HANDS_DIR/$1/cmd" ]; then
		pose_send "$1" hold "$2"
	fi
}

# put_down DEVICE [PITCH [ROLL]]: the hand lowers the device onto a surface
# (helpers/hand.h, "Carried": 0.2 m over POSE_CARRY_SECONDS, turning it to
# PITCH on the way when given, as a hand lays it flat) and lets go; it lies
# still there from then on. Returns when it has come to rest (the
# touchdown).
put_down() {
	local device="$1"
	if [ -n "${2:-}" ]; then
		pose_send "$device" carry down "$POSE_CARRY_SECONDS" "$2" "${3:-0}"
	else
		pose_send "$device" carry down "$POSE_CARRY_SECONDS"
	fi
	# shellcheck disable=SC2034 # for the caller
	POSE_LAST_RAW="$POSE_ANSWER"
	POSE_HOLD_OF[$device]=table
	sleep "$POSE_CARRY_SECONDS"
}

# pick_up DEVICE PITCH [ROLL]: a hand takes the device up again and holds it
# at PITCH, turning it there while it lifts it (0.2 m over
# POSE_CARRY_SECONDS). Returns when the lift is over: the device is in the
# hand, at PITCH.
pick_up() {
	local device="$1"
	POSE_HOLD_OF[$device]=hand
	if [ "$device" != hid ] && [ ! -p "$POSE_HANDS_DIR/$device/cmd" ]; then
		set_pose "$device" "$2" "${3:-0}"
	fi
	pose_send "$device" carry up "$POSE_CARRY_SECONDS" "$2" "${3:-0}"
	# shellcheck disable=SC2034 # for the caller
	POSE_LAST_RAW="$POSE_ANSWER"
	sleep "$POSE_CARRY_SECONDS"
}

# lay_down DEVICE SECONDS PITCH [ROLL]: the hand turns the device onto a
# surface at PITCH over SECONDS without lowering it, nothing knocks, and it
# lets go as the device arrives (helpers/hand.h, "Turned": a put-down
# without a jolt); it lies still there from then on. Returns at the arrival.
lay_down() {
	pose_send "$1" turn down "$2" "$3" "${4:-0}"
	# shellcheck disable=SC2034 # for the caller
	POSE_LAST_RAW="$POSE_ANSWER"
	POSE_HOLD_OF[$1]=table
	sleep "$2"
}

# take_up DEVICE SECONDS PITCH [ROLL]: a hand takes the device off its
# surface without lifting it, turning it to PITCH over SECONDS, and holds it
# there. Returns when the turn is over.
take_up() {
	POSE_HOLD_OF[$1]=hand
	pose_send "$1" turn up "$2" "$3" "${4:-0}"
	# shellcheck disable=SC2034 # for the caller
	POSE_LAST_RAW="$POSE_ANSWER"
	sleep "$2"
}

# pose_timeline DEVICE KEYFRAMES STEP: "MICROSECONDS X Y Z" raw readings
# every STEP seconds, the pitch interpolated linearly between KEYFRAMES
# ("t:pitch t:pitch ...", times ascending) plus a slight tremor of its own
# (two sines, 0.3 degrees at most, deterministic so recordings repeat; see
# helpers/hand.c).
pose_timeline() {
	local cal
	pose_load_calibration "$1"
	read -ra cal <<<"${POSE_CAL[$1]}"
	# shellcheck disable=SC2086 # the matrix as nine words
	"$HELPERS_DIR/hand" timeline --scale "${cal[@]:0:3}" --offset "${cal[@]:3:3}" \
		--matrix ${POSE_MATRIX//[,;]/ } --keys "$2" --step "$3"
}

# pose_sweep DEVICE KEYFRAMES: move DEVICE through the keyframes in real
# time, with the sweep's own tremor: the device's hand holds fixed from now
# on, so nothing else moves it. A stub chip gets a new sample every 20 ms
# (helpers/hand play); the HID sensor every 50 ms or as often as the shell
# manages (its reports have 1/100 g steps anyway). Late steps are skipped:
# the timeline keeps its length.
pose_sweep() {
	local device="$1" start us x y z delay sleeper
	pose_hold "$device" fixed
	if [ "$device" != hid ]; then
		driver_info "$device"
		pose_timeline "$device" "$2" 0.02 |
			"$HELPERS_DIR/hand" play --i2c "$STUB_BUS" "$DRV_ADDR" "$DRV_DATA" "$DRV_ENDIAN" \
				"$DRV_SHIFT" "$DRV_BITS" "$DRV_READS" 2>>"$RUN_DIR/sweep.log" ||
			fail "playing a sweep on the $device chip"
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
		pose_send hid raw "$x" "$y" "$z"
	done < <(pose_timeline hid "$2" 0.05)
	exec {sleeper}<&-
}
