#!/bin/bash
# poll-lis3dh: the poll path on lis3dh through st_accel: per-axis scale, mount_matrix, an unprefixed
# sampling_frequency that defaults to 1 Hz (every raw read then sleeps ~2 s, so
# the daemon must raise it, and restore 1 Hz when it stops); 12-bit.
# The tilt contract of lib/contract.sh, on the real driver, in Mode=poll.
# timeout: 240
set -eu
# shellcheck source=lib.sh
. "$HARNESS_DIR/lib.sh"

stub_load lis3dh
stub_add lis3dh >/dev/null
tilt_contract lis3dh poll
