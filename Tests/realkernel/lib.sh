# shellcheck shell=bash
# The scenario library: sourced by every scenarios/*.sh, which run in the
# guest (bash, chrooted into the host's root; see guest/enter). Each part
# lives in its own file under lib/.
#
# Conventions: functions fail the scenario themselves (fail prints why plus
# the diagnostics registered with diag_file) rather than returning codes to
# check; times are CLOCK_MONOTONIC seconds (now), the clock evread stamps
# frames with; every file a scenario produces goes to $RUN_DIR, which is the
# host's .build/realkernel/runs/<scenario>/.

# Order matters only for readability: nothing runs at source time but
# variable defaults.
# shellcheck source=lib/core.sh
. "$HARNESS_DIR/lib/core.sh"
# shellcheck source=lib/iio.sh
. "$HARNESS_DIR/lib/iio.sh"
# shellcheck source=lib/stub.sh
. "$HARNESS_DIR/lib/stub.sh"
# shellcheck source=lib/pose.sh
. "$HARNESS_DIR/lib/pose.sh"
# shellcheck source=lib/uhid.sh
. "$HARNESS_DIR/lib/uhid.sh"
# shellcheck source=lib/udev.sh
. "$HARNESS_DIR/lib/udev.sh"
# shellcheck source=lib/hinge.sh
. "$HARNESS_DIR/lib/hinge.sh"
# shellcheck source=lib/daemon.sh
. "$HARNESS_DIR/lib/daemon.sh"
# shellcheck source=lib/frames.sh
. "$HARNESS_DIR/lib/frames.sh"
# shellcheck source=lib/contract.sh
. "$HARNESS_DIR/lib/contract.sh"
# shellcheck source=lib/lifecycle.sh
. "$HARNESS_DIR/lib/lifecycle.sh"
# shellcheck source=lib/sensorproxy.sh
. "$HARNESS_DIR/lib/sensorproxy.sh"
