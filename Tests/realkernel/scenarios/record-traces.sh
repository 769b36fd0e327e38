#!/bin/bash
# record-traces: record tiltscroll traces from real drivers for the demo and
# the physics golden tests: kxcjk-1013 on i2c-stub (the poll path) and the
# HID sensor hub accelerometer through uhid (the path of ISH/SFH laptops).
# A scripted hand holds the display at a reading pose (30 degrees), tilts it
# slowly away to 50, holds, comes back, tilts towards to 10, comes back and
# holds still: about 15 s, with a slight tremor. iio-record samples the
# driver's in_accel_*_raw at 50 Hz meanwhile. On success the run script
# copies $RUN_DIR/traces/*.trace into Tests/realkernel/traces/.
# tool: records Tests/realkernel/traces/*.trace
# timeout: 180
set -eu
# shellcheck source=lib.sh
. "$HARNESS_DIR/lib.sh"

SWEEP="0:30 1.5:30 4.5:50 6:50 8:30 10:10 11:10 13:30 15:30"
KERNEL="Debian kernel $(uname -r) ($KERNEL_PACKAGE_VERSION) under QEMU"
mkdir -p "$RUN_DIR/traces"

# record DEVICE IIO_NAME DESCRIPTION FILE
record() {
	local device="$1" iio="$2" describe="$3" trace="$RUN_DIR/traces/$4" pid
	set_pose "$device" 30
	"$HELPERS_DIR/iio-record" --device "$iio" --describe "$describe, $KERNEL" \
		--output "$trace" --rate 50 --duration 16 2>"$RUN_DIR/$4.log" &
	pid=$!
	diag_file "$RUN_DIR/$4.log"
	# Half a second of the reading pose before the sweep: part of the trace.
	sleep 0.5
	pose_sweep "$device" "$SWEEP"
	wait_exit "$pid" 10
	[ "$EXIT_STATUS" = 0 ] || fail "iio-record on $iio: $EXIT_STATUS"
	cat "$RUN_DIR/$4.log"
	check_trace "$trace"
}

# check_trace FILE: the fixed header, times from 0 and increasing, enough
# samples, and the sweep visible in the data (pitch from y and z).
check_trace() {
	local problems
	problems="$(awk '
		NR == 1 && $0 != "# tiltscroll trace 1" { print "bad first line" }
		NR == 2 && $0 !~ /^# device: / { print "no device line" }
		NR == 3 && $0 !~ /^# scale: [^ ]+ [^ ]+ [^ ]+$/ { print "no scale line" }
		NR == 4 && $0 !~ /^# offset: [^ ]+ [^ ]+ [^ ]+$/ { print "no offset line" }
		NR == 5 && $0 !~ /^# mount-matrix: / { print "no mount-matrix line" }
		NR > 5 {
			if (NF != 4) print "line " NR ": " NF " fields"
			if (n == 0 && $1 != "0.000") print "first time " $1
			if (n > 0 && $1 <= last) print "line " NR ": time goes back"
			last = $1; n++
			p = atan2(-$4, -$3) * 180 / atan2(0, -1)
			if (n == 1 || p > max) max = p
			if (n == 1 || p < min) min = p
		}
		END {
			if (n < 500) print n " samples, expected about 750"
			if (max < 45 || min > 15) printf "pitch only spans %.1f to %.1f degrees\n", min, max
			printf "ok %d samples over %.1f s, pitch %.1f to %.1f\n", n, last, min, max > "/dev/stderr"
		}' "$1" 2>"$1.summary")"
	[ -z "$problems" ] || fail "$(basename "$1"): $problems"
	log "$(basename "$1"): $(cat "$1.summary")"
	rm "$1.summary"
}

step "kxcjk-1013 on i2c-stub"
stub_load kxcjk
stub_add kxcjk >/dev/null
record kxcjk kxcj91008 "kxcjk-1013 (kxcj91008) on i2c-stub" kxcjk-1013.trace

step "HID sensor hub accelerometer through uhid"
hid_start >/dev/null
record hid accel_3d "hid-sensor-accel-3d (accel_3d) on a uhid HID sensor hub" hid-sensor-accel-3d.trace
pass "two traces recorded"
