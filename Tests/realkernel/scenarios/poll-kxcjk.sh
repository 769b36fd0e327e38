#!/bin/bash
# poll-kxcjk: the poll path on kxcjk-1013 (kxcj91008): shared in_accel_scale, in_accel_mount_matrix,
# in_accel_sampling_frequency with an _available list; 12-bit, word reads.
# The tilt contract of lib/contract.sh, on the real driver, in Mode=poll.
# timeout: 240
set -eu
# shellcheck source=lib.sh
. "$HARNESS_DIR/lib.sh"

stub_load kxcjk
stub_add kxcjk >/dev/null
tilt_contract kxcjk poll
