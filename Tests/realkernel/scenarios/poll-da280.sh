#!/bin/bash
# poll-da280: the poll path on da280: 14-bit, sysfs only: no buffer and no sampling frequency to
# change or restore.
# The tilt contract of lib/contract.sh, on the real driver, in Mode=poll.
# timeout: 240
set -eu
# shellcheck source=lib.sh
. "$HARNESS_DIR/lib.sh"

stub_load da280
stub_add da280 >/dev/null
tilt_contract da280 poll
