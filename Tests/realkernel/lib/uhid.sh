# shellcheck shell=bash
# The HID sensor hub accelerometer, played by helpers/uhid-accel.

HID_VALUES=/run/tiltscroll-test/hid-values

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
	diag_file "$RUN_DIR/uhid-accel.err"
	iio_wait accel_3d 15
}

# hid_write_values "X Y Z": what the sensor reports from now on (1/100 g).
# Renamed into place so uhid-accel never reads half a line.
hid_write_values() {
	echo "$1" >"$HID_VALUES.new"
	mv "$HID_VALUES.new" "$HID_VALUES"
}
