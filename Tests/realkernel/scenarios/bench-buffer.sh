#!/bin/bash
# bench-buffer: measurements for Benchmarks/daemon-bench on the HID sensor hub
# accelerometer (hid-sensor-accel-3d through uhid) in Mode=buffer (numbers,
# no verdict): the active daemon held still and scrolling: wake-ups, memory,
# system calls (strace), heap calls (Benchmarks/alloc-count.c preloaded) and
# instructions (callgrind); the same sensor polled (Mode=poll) held still,
# scrolling and resting; then side by side with iio-sensor-proxy claimed by
# monitor-sensor (tiltscrolld in Mode=auto). Raw numbers go to the run
# directory.
# tool: a benchmark (Benchmarks/daemon-bench runs it)
# timeout: 700
set -eu
# shellcheck source=lib.sh
. "$HARNESS_DIR/lib.sh"
# shellcheck source=../../../Benchmarks/lib/guest.sh
. "$PROJECT_DIR/Benchmarks/lib/guest.sh"

bench_require
BENCH_DEVICE=hid
BENCH_IIO=accel_3d
hid_start >/dev/null
set_pose hid "$NEUTRAL"

bench_active buffer
bench_states poll hubpoll
bench_side_by_side buffer
pass "measured"
