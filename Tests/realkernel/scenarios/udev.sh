#!/bin/bash
# udev: systemd-udevd running in the guest with the project's udev/*.rules
# installed, plus a rules file giving the accelerometer an ACCEL_MOUNT_MATRIX
# (the way hwdb quirks reach real machines). The matrix reflects z and is
# not symmetric, so a daemon that ignored it (or read the sysfs identity
# instead) would scroll the wrong way. Then the i2c device is removed and
# re-added while the daemon runs: it must reattach by itself (same process)
# and promptly (it follows udev), apply the matrix to the new device, and not
# scroll while the sensor is away or when it returns.
# timeout: 240
set -eu
# shellcheck source=lib.sh
. "$HARNESS_DIR/lib.sh"

MATRIX="0, 1, 0; -1, 0, 0; 0, 0, -1"

step "udevd with the project's rules and a mount matrix rule"
stub_load kxcjk
dir="$(stub_add kxcjk)"
udev_install_project_rules
udev_add_rule 61-tiltscroll-test-mount-matrix.rules <<EOF
# Test only: a sensor mounted rotated and facing the back of the display.
ACTION!="remove", SUBSYSTEM=="iio", ATTR{name}=="kxcj91008", ENV{ACCEL_MOUNT_MATRIX}="$MATRIX"
EOF
udevd_start
got="$(udev_property "$dir" ACCEL_MOUNT_MATRIX)"
[ "$got" = "$MATRIX" ] || fail "udev did not apply the mount matrix rule to $dir: '$got'"
log "udev: $dir has ACCEL_MOUNT_MATRIX=$got (sysfs in_accel_mount_matrix: $(cat "$dir/in_accel_mount_matrix"))"

# From now on poses are written as the sensor reads them under that matrix.
POSE_MATRIX="$MATRIX"
set_pose kxcjk "$NEUTRAL"
log "the reading pose reads raw $POSE_LAST_RAW: gravity along +x and +z without the matrix"

step "the scroll direction follows the matrix"
daemon_start_scrolling udev <<EOF
[Device]
Name=kxcj91008

[Activation]
When=always
EOF
t="$(now)"
# Held still at the neutral pose for 2 s (the behaviour under test).
sleep 2
expect_silence "at rest at the neutral pose" "$t" "$(now)"
hold kxcjk $((NEUTRAL + 12)) 3
expect_prompt_start "12 degrees away" "$HOLD_FROM" 1.5
expect_scroll "12 degrees away" - "$(fadd "$HOLD_FROM" 1)" "$HOLD_TO" >/dev/null
hold kxcjk "$NEUTRAL" 2
expect_silence "back at neutral, from 0.5 s on" "$(fadd "$HOLD_FROM" 0.5)" "$HOLD_TO"
hold kxcjk $((NEUTRAL - 12)) 3
expect_scroll "12 degrees towards" + "$(fadd "$HOLD_FROM" 1)" "$HOLD_TO" >/dev/null
hold kxcjk "$NEUTRAL" 2
expect_silence "back at neutral, from 0.5 s on" "$(fadd "$HOLD_FROM" 0.5)" "$HOLD_TO"

step "remove the i2c device while the daemon runs"
removed="$(now)"
stub_remove kxcjk
udev_settle
! iio_exists kxcj91008 || fail "the IIO device is still there after delete_device"
expect_status 5 "the accelerometer went away" "$WAITING_FOR_SENSOR"
daemon_alive || fail "the daemon exited when its accelerometer went away"
log "the daemon keeps running without its accelerometer"

step "re-add it: the daemon reattaches promptly, without a restart and without scrolling"
# The stub chip kept its registers: the sensor still reads the neutral pose.
dir="$(stub_add kxcjk)"
udev_settle
got="$(udev_property "$dir" ACCEL_MOUNT_MATRIX)"
[ "$got" = "$MATRIX" ] || fail "the re-added device lacks the mount matrix: '$got'"
log "re-added as $(basename "$dir"), with the matrix"
# Promptly: it follows udev, it does not rescan every few seconds.
expect_status 3 "the accelerometer is back" "$SCROLLING"
daemon_alive || fail "the daemon exited when its accelerometer came back"
expect_silence "from removal until 1 s after the return, at the neutral pose" "$removed" "$(now)"
# Within 1.5 s of tilting, about 3 s after the removal: a daemon that only
# rescans every few seconds instead of following udev does not make it.
hold kxcjk $((NEUTRAL + 12)) 3
expect_prompt_start "12 degrees away after the return" "$HOLD_FROM" 1.5
expect_scroll "12 degrees away after the return" - "$(fadd "$HOLD_FROM" 1)" "$HOLD_TO" >/dev/null
hold kxcjk "$NEUTRAL" 2
expect_silence "back at neutral, from 0.5 s on" "$(fadd "$HOLD_FROM" 0.5)" "$HOLD_TO"

step "SIGTERM"
daemon_stop
frames_stop
frames_check_shape
udevd_stop
pass "the matrix from udev sets the direction; the daemon survives remove and re-add"
