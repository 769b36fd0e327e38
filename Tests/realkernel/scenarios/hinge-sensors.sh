#!/bin/bash
# hinge-sensors: the fixture of a convertible with no tablet-mode switch
# (issue 25, lib/hinge.sh): kxcjk-1013 in the display and bmc150 in the
# base on i2c-stub, located by the driver's label where it has one and by a
# udev ACCEL_LOCATION rule where not, the base's part mounted turned (a
# udev ACCEL_MOUNT_MATRIX), both held by one hand.
#   - tiltscrollctl list-devices lists both, the display's marked as the
#     one it uses, each with its location and where that came from, and
#     the base's matrix from udev;
#   - a table of poses and hinge angles (laptop on a table, flat, stand,
#     folded, the hinge tilted), held fixed: each sensor's registers hold
#     exactly the pose's raw values, and through scale and matrix the two
#     read one gravity (equal along the hinge, of equal length) turned by
#     the hinge angle;
#   - held in a hand: the display's pose moves, the angle the two show
#     stays within a degree and a half of the one set;
#   - turned to portrait, the hinge near vertical: less than half of
#     gravity across the hinge in both;
#   - swept from a laptop to folded flat in 2 s: the angle set at the end.
# No daemon runs: the client beside it (make release builds both) lists
# the devices; the daemon's scenario comes with its use of the two sensors.
# timeout: 200
set -eu
# shellcheck source=lib.sh
. "$HARNESS_DIR/lib.sh"

TILTSCROLLCTL="$(dirname "$TILTSCROLLD")/tiltscrollctl"
[ -x "$TILTSCROLLCTL" ] || fail "no client at $TILTSCROLLCTL (make release builds it beside the daemon)"

step "two accelerometers on i2c-stub, located, the base's matrix from udev"
hinge_start
[ "$(udev_property "$HINGE_BASE_DIR" ACCEL_MOUNT_MATRIX)" = "$HINGE_BASE_MATRIX" ] ||
	fail "udev did not give the base its mount matrix"
for dir in "$HINGE_DISPLAY_DIR" "$HINGE_BASE_DIR"; do
	label="none"
	[ -r "$dir/label" ] && read -r label <"$dir/label"
	log "$(basename "$dir"): sysfs label '$label', udev ACCEL_LOCATION '$(udev_property "$dir" ACCEL_LOCATION)'"
done

step "tiltscrollctl list-devices lists both with their locations"
listing="$RUN_DIR/list-devices.txt"
"$TILTSCROLLCTL" list-devices >"$listing" 2>&1 || fail "list-devices failed: $(cat "$listing")"
diag_file "$listing"
# listed_block IIO_NAME: the listing's block of the device named IIO_NAME.
listed_block() {
	awk -v n="$1" 'BEGIN { RS = "" } { split($0, first, "\n"); if (first[1] ~ "^[* ] " n "  ") print }' "$listing"
}
driver_info "$HINGE_DISPLAY"
display_block="$(listed_block "$DRV_IIO")"
driver_info "$HINGE_BASE"
base_block="$(listed_block "$DRV_IIO")"
if [ -z "$display_block" ] || [ -z "$base_block" ]; then fail "list-devices does not list both: $(cat "$listing")"; fi
source_text() { if [ "$1" = label ]; then echo "sysfs label"; else echo "udev ACCEL_LOCATION"; fi; }
grep -q "^\* " <<<"$display_block" || fail "the display's sensor is not the one marked as used: $display_block"
grep -q "^  " <<<"$base_block" || fail "the base's sensor is marked as used: $base_block"
grep -qE "location: +display \($(source_text "$HINGE_DISPLAY_LOCATION_SOURCE")\)" <<<"$display_block" ||
	fail "the display's location is not listed: $display_block"
grep -qE "location: +base \($(source_text "$HINGE_BASE_LOCATION_SOURCE")\)" <<<"$base_block" ||
	fail "the base's location is not listed: $base_block"
grep -qF "$HINGE_BASE_MATRIX (udev ACCEL_MOUNT_MATRIX)" <<<"$base_block" ||
	fail "the base's mount matrix is not listed: $base_block"
log "listed: display $(grep -E 'location:' <<<"$display_block" | sed 's/^ *//'), base $(grep -E 'location:' <<<"$base_block" | sed 's/^ *//')"

step "fixed poses: exact registers, one gravity turned by the hinge angle"
POSE_HOLD=fixed
# hinge pitch roll: a laptop on a table (the base flat), opened flat, a
# stand (the display upright, the base keyboard down), folded flat held to
# read, nearly closed, the hinge tilted 40 degrees, a tent (the display
# upside down, both halves leaning 30 degrees).
for pose in "110 20 0" "180 90 0" "270 0 0" "355 30 -15" "25 80 5" "200 45 40" "300 150 0"; do
	read -r hinge pitch roll <<<"$pose"
	set_hinge "$hinge" "$pitch" "$roll"
	got_display="$(iio_raw "$HINGE_DISPLAY_DIR")"
	got_base="$(iio_raw "$HINGE_BASE_DIR")"
	[ "$got_display" = "$HINGE_DISPLAY_RAW" ] || fail "hinge $hinge: display raw '$got_display', the pose's '$HINGE_DISPLAY_RAW'"
	[ "$got_base" = "$HINGE_BASE_RAW" ] || fail "hinge $hinge: base raw '$got_base', the pose's '$HINGE_BASE_RAW'"
	line="$(hinge_compute "$got_display" "$got_base" "$hinge")"
	read -r dx dy dz bx by bz angle _ <<<"$line"
	# Within half a degree; one gravity seen twice: equal along the hinge
	# and in length, 1 g; a laptop on a table: the base reads (0, 0, 1) g.
	awk -v l="$line" -v h="$hinge" 'BEGIN {
		split(l, v, " ")
		dm = sqrt(v[1]^2 + v[2]^2 + v[3]^2); bm = sqrt(v[4]^2 + v[5]^2 + v[6]^2)
		along = v[1] - v[4]; if (along < 0) along = -along
		len = dm - bm; if (len < 0) len = -len
		ok = v[9] <= 0.5 && along <= 0.01 && len <= 0.01 && dm > 0.98 && dm < 1.02
		if (h == 110) ok = ok && v[6] >= 0.995
		exit !ok
	}' || fail "hinge $hinge (pitch $pitch, roll $roll): display ($dx $dy $dz) g, base ($bx $by $bz) g, $angle degrees"
	log "hinge $hinge, pitch $pitch, roll $roll: raw display $got_display, base $got_base;" \
		"display ($dx $dy $dz) g, base ($bx $by $bz) g: $angle degrees"
done

step "held in a hand: the pose moves, the angle stays"
pose_hold "$HINGE_DISPLAY" hand
pose_hold "$HINGE_BASE" hand
set_hinge 300 30
# Twenty pairs of readings at least 0.1 s apart, taken with builtins (no
# process per read: under TCG one costs more than the interval), judged at
# once.
exec {sleeper}< <(sleep 3600)
pairs=()
started="$EPOCHREALTIME"
for ((i = 0; i < 20; i++)); do
	pairs+=("$(iio_raw "$HINGE_DISPLAY_DIR") $(iio_raw "$HINGE_BASE_DIR")")
	read -r -t 0.1 -u "$sleeper" _ || true
done
exec {sleeper}<&-
took="$(fadd "$EPOCHREALTIME" "-$started")"
verdict="$(for pair in "${pairs[@]}"; do
	read -r a b c x y z <<<"$pair"
	hinge_compute "$a $b $c" "$x $y $z" 300
done | awk '{ if ($9 > worst) worst = $9; if (NR == 1 || $10 < lo) lo = $10; if (NR == 1 || $10 > hi) hi = $10 }
	END { printf "%.3f %.3f\n", worst, hi - lo }')"
read -r worst range <<<"$verdict"
fcmp "$worst" "<=" 1.5 || fail "in a hand at 300 degrees the sensors show up to $worst degrees off it"
fcmp "$range" ">=" 0.1 || fail "the hand does not move the display: its pitch ranged over $range degrees"
log "in a hand: over 20 readings in ${took%????} s the display's pitch ranged over $range degrees, the angle at most $worst off 300"

step "portrait: the hinge near vertical"
set_hinge 300 30 85
read -r dx _ _ bx _ _ _ across _ <<<"$(hinge_read)"
fcmp "$across" "<" 0.5 || fail "in portrait $across g lies across the hinge"
log "portrait: along the hinge $dx (display) and $bx (base) g, across it at most $across g"

step "swept from a laptop to folded flat"
set_hinge 110 25
hinge_sweep 110 350 2 25
read -r _ _ _ _ _ _ angle _ off _ <<<"$(hinge_read 350)"
fcmp "$off" "<=" 1.5 || fail "after the sweep to 350 the sensors show $angle"
log "after the sweep: $angle degrees"

pass "two accelerometers, listed with their locations, show the hinge angle set, fixed and in a hand"
