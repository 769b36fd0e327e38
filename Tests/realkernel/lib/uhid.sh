# shellcheck shell=bash
# The HID sensor hub accelerometer, played by helpers/uhid-accel.

HID_VALUES=/run/tiltscroll-test/hid-values
HID_PID_FILE=/run/tiltscroll-test/uhid-accel.pid

# hid_start: load the sensor hub drivers first (with no udevd nothing would
# autoload them, and hid-generic must not get the device), start uhid-accel
# and print the IIO directory of its accel_3d device.
hid_start() {
	mkdir -p "$(dirname "$HID_VALUES")"
	[ -e "$HID_VALUES" ] || echo "0 -100 0" >"$HID_VALUES"
	local m
	for m in uhid hid-sensor-hub hid-sensor-accel-3d; do
		modprobe "$m" || fail "modprobe $m failed"
	done
	"$HELPERS_DIR/uhid-accel" --verbose --values "$HID_VALUES" >"$RUN_DIR/uhid-accel.out" 2>"$RUN_DIR/uhid-accel.err" &
	# A file, not a variable: hid_start often runs inside $(...).
	echo $! >"$HID_PID_FILE"
	diag_file "$RUN_DIR/uhid-accel.err"
	iio_wait accel_3d 15
}

# hid_write_values "X Y Z": what the sensor reports from now on (1/100 g).
# Renamed into place so uhid-accel never reads half a line.
hid_write_values() {
	echo "$1" >"$HID_VALUES.new"
	mv "$HID_VALUES.new" "$HID_VALUES"
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
