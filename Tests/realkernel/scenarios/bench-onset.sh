#!/bin/bash
# bench-onset: how soon a deliberate tilt scrolls after the device was held
# still, for Benchmarks/daemon-bench (numbers, no verdict). Held still in a
# hand at the neutral pose the daemon samples at a quarter of its rate (the
# engine's sample demand); a tilt must still scroll within 150 ms of leaving
# the dead zone (issue 14). Per driver and capture mode (kxcjk-1013,
# lis3dh, da280 polled; the HID sensor hub buffered and polled), TRIALS
# times: held still at the neutral pose for SETTLE s, the pose steps STEP
# degrees away (out of the 4 degree dead zone at once) and 1.5 s later back;
# 0.3 s after that (no process in between: under TCG a spawn takes tens
# of ms), while the engine still runs at the full rate (holding: it follows
# again only after two 0.35 s blocks within half the dead zone), the same
# step again. The second is the baseline of the first under the same load:
# what the step costs at the full rate, as every tilt did before the
# daemon followed the demand.
#
# The daemon's sample reads are timed by perf record on their system call
# (CLOCK_MONOTONIC, the clock of evread's frame stamps), its frames by
# evread, the steps by the kernel's clock read without a process
# (mono_now). Lines "onset DEVICE MODE TRIAL 0 AFTER_MS SAMPLE_MS FRAME_MS
# PERIOD_MS KIND" go to $RUN_DIR/results: times from the moment before the
# step was written (the pose left the dead zone between that and AFTER_MS,
# when set_pose returned): the first sample read after that, the first
# frame; the interval between the last two reads before the step (80 ms:
# the daemon followed a held-still demand; 20 ms: the full rate), and the
# kind of step: held (after SETTLE s held still) or full (the baseline).
# tool: a benchmark (Benchmarks/daemon-bench runs it)
# timeout: 900
set -eu
# shellcheck source=lib.sh
. "$HARNESS_DIR/lib.sh"
# shellcheck source=../../../Benchmarks/lib/guest.sh
. "$PROJECT_DIR/Benchmarks/lib/guest.sh"

TRIALS="${TRIALS:-5}"
SETTLE="${SETTLE:-5}"
STEP=12
: >"$RUN_DIR/results"
daemon_require
mountpoint -q /sys/kernel/tracing || mount -t tracefs tracefs /sys/kernel/tracing ||
	fail "cannot mount tracefs for perf"

# mono_now VAR: CLOCK_MONOTONIC now into VAR, seconds, with no process
# (a monotime spawn takes tens of ms under TCG, more than the latencies
# measured): the kernel's own "now at N nsecs" (ktime_get, the monotonic
# clock) at the top of /proc/timer_list, read with builtins.
mono_now() {
	local line ns=""
	while read -r line; do
		case "$line" in
		"now at "*) ns="${line#now at }" ns="${ns%% *}" && break ;;
		esac
	done </proc/timer_list
	[ -n "$ns" ] || fail "no 'now at' line in /proc/timer_list"
	printf -v "$1" '%d.%09d' $((ns / 1000000000)) $((ns % 1000000000))
}

# timed_step TRIAL KIND: the step away, its times in $marks, then 1.5 s
# (KIND: held, after SETTLE s held still; full, the baseline).
timed_step() {
	local t0 t1
	mono_now t0
	set_pose "$device" $((NEUTRAL + STEP))
	mono_now t1
	echo "$1 $t0 $t1 $2" >>"$marks"
	sleep 1.5
}

# onset DEVICE IIO MODE: one daemon, TRIALS timed tilts from held still
# and as many from the full rate.
onset() {
	local iio="$2" mode="$3" name="onset-$1-$3" config fd call data perf_pid trial t0 t1 state
	device="$1" marks="$RUN_DIR/$name.marks"
	step "$device ($mode): $TRIALS tilts of $STEP degrees after $SETTLE s held still"
	BENCH_IIO="$iio"
	config="$(bench_config "$name" "$mode" always)"
	set_pose "$device" "$NEUTRAL"
	bench_start "$name" "$config"
	bench_wait_device 60
	read -r fd call < <(daemon_sample_fd)
	data="$RUN_DIR/$name.perf"
	perf record -q -k CLOCK_MONOTONIC -o "$data" -e "syscalls:sys_enter_$call" --filter "fd == $fd" \
		-p "$DAEMON_PID" -- sleep $((TRIALS * (SETTLE + 5) + 4)) >/dev/null 2>"$RUN_DIR/$name.perf.err" &
	perf_pid=$!
	sleep 2
	: >"$marks"
	rm -f /run/tiltscroll-onset-pause
	mkfifo /run/tiltscroll-onset-pause
	for ((trial = 1; trial <= TRIALS; trial++)); do
		set_pose "$device" "$NEUTRAL"
		sleep "$SETTLE"
		timed_step "$trial" held
		# Nothing but builtins between the return and the next step.
		set_pose "$device" "$NEUTRAL"
		read -rt 0.3 _ <>/run/tiltscroll-onset-pause || true
		timed_step "$trial" full
	done
	set_pose "$device" "$NEUTRAL"
	wait "$perf_pid" || fail "perf record failed: $(cat "$RUN_DIR/$name.perf.err")"
	bench_stop
	perf script -i "$data" -F time 2>/dev/null | tr -d ':' >"$RUN_DIR/$name.reads"
	while read -r trial t0 t1 state; do
		bench_result "$(awk -v device="$device" -v mode="$mode" -v trial="$trial" -v t0="$t0" -v t1="$t1" \
			-v kind="$state" -v frames="$FRAMES" '
			FILENAME == frames { if ($1 == "frame" && $2 >= t0 && frame == "") frame = $2; next }
			{ t = $1 + 0; if (t < t0) { prev = last; last = t } else if (t >= t1 && sample == "") sample = t }
			END {
				printf "onset %s %s %d 0 %.1f %.1f %.1f %.1f %s\n", device, mode, trial, (t1 - t0) * 1000,
					sample == "" ? -1 : (sample - t0) * 1000, frame == "" ? -1 : (frame - t0) * 1000,
					prev == "" ? -1 : (last - prev) * 1000, kind
			}' "$RUN_DIR/$name.reads" "$FRAMES")"
		log "$(tail -n 1 "$RUN_DIR/results")"
	done <"$marks"
}

mono_now t0
t1="$(now)"
log "/proc/timer_list: $t0, monotime: $t1"
stub_load kxcjk lis3dh da280
for device in kxcjk lis3dh da280; do
	stub_add "$device" >/dev/null
done
hid_start >/dev/null
onset kxcjk kxcj91008 poll
onset lis3dh lis3dh poll
onset da280 da280 poll
onset hid accel_3d buffer
onset hid accel_3d poll
pass "measured"
