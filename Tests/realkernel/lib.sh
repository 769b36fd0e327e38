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

for _part in core iio stub pose uhid udev daemon frames contract; do
	# shellcheck source=/dev/null
	. "$HARNESS_DIR/lib/$_part.sh"
done
unset _part
