# shellcheck shell=bash
# The HID sensor hub accelerometer, played by helpers/uhid-accel, which is
# also its hand (lib/pose.sh: set_pose hid PITCH [ROLL]).

HID_PID_FILE=/run/tiltscroll-test/uhid-accel.pid

# hid_start: load the sensor hub drivers first (with no udevd nothing would
# autoload them, and hid-generic must not get the device), start uhid-accel
# and print the IIO directory of its accel_3d device. It reports upright,
# exactly, until the first set_pose. With HID_SENSITIVITY=1 the hub has a
# change sensitivity it reports and honours (uhid-accel --sensitivity).
hid_start() {
	local m dir="$POSE_HANDS_DIR/hid"
	for m in uhid hid-sensor-hub hid-sensor-accel-3d; do
		modprobe "$m" || fail "modprobe $m failed"
	done
	mkdir -p "$dir" "$(dirname "$HID_PID_FILE")"
	pose_seed hid
	"$HELPERS_DIR/uhid-accel" --verbose --control "$dir" --noise-mg "$(pose_noise_mg hid)" \
		--seed "$POSE_SEED_OUT" ${HID_SENSITIVITY:+--sensitivity} >>"$RUN_DIR/uhid-accel.out" \
		2>>"$RUN_DIR/uhid-accel.err" &
	# A file, not a variable: hid_start often runs inside $(...).
	echo $! >"$HID_PID_FILE"
	diag_file "$RUN_DIR/uhid-accel.err"
	iio_wait accel_3d 15
}

# hid_signal SIGNAL WORD: signal uhid-accel and print the time on the next
# "WORD T" line it writes (see helpers/uhid-accel.c).
hid_signal() {
	local out="$RUN_DIR/uhid-accel.out" before
	before="$(grep -c "^$2 " "$out" || true)"
	kill "-$1" "$(cat "$HID_PID_FILE")" || fail "cannot signal uhid-accel"
	wait_until 5 "uhid-accel to say '$2'" hid_said_more "$2" "$before"
	grep "^$2 " "$out" | tail -n 1 | awk '{ print $2 }'
}

# hid_said_more WORD COUNT: uhid-accel has written more than COUNT "WORD" lines.
hid_said_more() {
	[ "$(grep -c "^$1 " "$RUN_DIR/uhid-accel.out" || true)" -gt "$2" ]
}

# hid_pause: the sensor hub stops sending reports (a stalled sensor, a
# machine going to sleep); prints the time of the last report it sent.
hid_pause() {
	hid_signal USR1 paused
}

# hid_resume: reports flow again; prints the time of the first one.
hid_resume() {
	hid_signal USR2 resumed
}

# hid_stop: uhid-accel destroys the sensor hub; waits until accel_3d is gone.
hid_stop() {
	local pid
	read -r pid <"$HID_PID_FILE"
	kill -TERM "$pid" || fail "cannot stop uhid-accel"
	wait_until 10 "accel_3d to go away" hid_gone
}

hid_gone() {
	! iio_exists accel_3d
}
