#!/bin/bash
# buffer-hid: the buffered path, on the HID sensor hub of Intel ISH / AMD SFH
# machines (hid-sensor-accel-3d through uhid): its own trigger, 16-bit values
# in 32-bit slots, a timestamp channel. The tilt contract of lib/contract.sh
# in Mode=buffer, with the buffer enabled while the daemon runs and the
# buffer, channels, trigger and sampling frequency restored after SIGTERM.
# timeout: 240
set -eu
# shellcheck source=lib.sh
. "$HARNESS_DIR/lib.sh"

hid_start >/dev/null
tilt_contract hid buffer
