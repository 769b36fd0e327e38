#!/bin/bash
# bench-poll: measurements for Benchmarks/daemon-bench on kxcjk-1013 in
# Mode=poll (numbers, no verdict): wake-ups while inactive (When=manual never
# toggled; When=tablet-mode with a uinput switch in laptop mode), then the
# active daemon held still and scrolling: wake-ups, memory, system calls
# (strace), heap calls (Benchmarks/alloc-count.c preloaded) and instructions
# (callgrind), held still, scrolling and resting; then side by side with
# iio-sensor-proxy claimed by monitor-sensor (tiltscrolld in Mode=auto).
# Raw numbers go to the run directory; daemon-bench prints them.
# tool: a benchmark (Benchmarks/daemon-bench runs it)
# timeout: 700
set -eu
# shellcheck source=lib.sh
. "$HARNESS_DIR/lib.sh"
# shellcheck source=../../../Benchmarks/lib/guest.sh
. "$PROJECT_DIR/Benchmarks/lib/guest.sh"

bench_require
BENCH_DEVICE=kxcjk
stub_load kxcjk
stub_add kxcjk >/dev/null
driver_info kxcjk
BENCH_IIO="$DRV_IIO"
set_pose kxcjk "$NEUTRAL"

step "inactive: When=manual, never toggled"
bench_inactive manual manual
step "inactive: When=tablet-mode, a tablet-mode switch in laptop mode"
bench_inactive tablet-mode tablet-mode switch

bench_active poll
bench_side_by_side poll
pass "measured"
