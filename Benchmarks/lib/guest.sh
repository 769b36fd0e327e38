# shellcheck shell=bash
# The guest half of Benchmarks/daemon-bench: sourced by the real-kernel
# scenarios Tests/realkernel/scenarios/bench-*.sh after lib.sh. It runs the
# daemon in the states to measure and leaves raw numbers in $RUN_DIR:
#
#   results                "KEY VALUE..." lines (counters read from /proc)
#   alloc-*.t1, alloc-*.t2 the alloc-count counters at the start and end of a window
#   fds-*                  the daemon's descriptors (ls -l /proc/PID/fd)
#   strace-*.txt           a full strace of a window
#   callgrind-*.out.1      the callgrind dump of a window
#   status-*, smaps-*      /proc/PID/status and /proc/PID/smaps while scrolling
#
# Benchmarks/daemon-bench turns them into numbers on the host (faster than
# under TCG). Nothing here judges a number: benchmarks print, they do not pass
# or fail. A bench scenario fails only when it could not measure.

BENCH_DIR="$PROJECT_DIR/.build/bench"
BENCH_ALLOC_LIB="$BENCH_DIR/alloc-count.so"
# The release binary with its DWARF removed (objcopy --strip-debug, loadable
# sections checked identical by daemon-bench): valgrind 3.19 cannot read the
# DWARF 5 of the statically linked Swift runtime and gives up.
BENCH_VALGRIND_BIN="$BENCH_DIR/tiltscrolld-nodebug"
# Seconds of each measurement window, and to let a state settle before one.
BENCH_WINDOW="${BENCH_WINDOW:-10}"
BENCH_ALLOC_WINDOW="${BENCH_ALLOC_WINDOW:-20}"
BENCH_SETTLE=2
# Seconds from the start (in a hand at the neutral pose) to the held-still
# window, and from a put-down to the resting one: the engine's own time to
# tell (StillnessMeter: two 0.35 s blocks; the 5.6 s long window), then a
# buffer's 2 s before it lowers its rate (DemandFollower).
BENCH_STILL_SETTLE=5
BENCH_REST_SETTLE=10
NEUTRAL=30 # the pose each daemon starts at (its neutral)
TILTED=45  # 15 degrees away: scrolls steadily, frames on the output clock

bench_require() {
	daemon_require
	local f
	for f in "$BENCH_ALLOC_LIB" "$BENCH_VALGRIND_BIN"; do
		[ -e "$f" ] || fail "$f is missing: run Benchmarks/daemon-bench, which builds it"
	done
	[ "$BENCH_VALGRIND_BIN" -nt "$TILTSCROLLD" ] ||
		fail "$BENCH_VALGRIND_BIN is older than $TILTSCROLLD: run Benchmarks/daemon-bench, which rebuilds it"
	command -v valgrind >/dev/null || fail "valgrind is not installed in the host's root"
	command -v strace >/dev/null || fail "strace is not installed in the host's root"
	: >"$RUN_DIR/results"
}

# bench_result KEY VALUE...: one line of results.
bench_result() {
	echo "$*" >>"$RUN_DIR/results"
}

# bench_config NAME MODE WHEN: a configuration file for the kind of run.
bench_config() {
	daemon_config "$1" <<EOF
[Device]
Name=$BENCH_IIO
Mode=$2

[Activation]
When=$3
EOF
}

# bench_start NAME CONFIG [WRAPPER...]: the daemon in the background
# (DAEMON_PID), its output in $RUN_DIR/NAME.err, its notifications to the
# scenario's listener (lib/daemon.sh: expect_status). Unless BENCH_EVREAD=0, its
# frames are recorded by evread in $RUN_DIR/frames-NAME.txt (FRAMES). WRAPPER
# (env, valgrind) execs the daemon, so DAEMON_PID is the daemon's own process.
# BENCH_BIN replaces the binary (valgrind needs the copy without DWARF).
bench_start() {
	local name="$1" config="$2" bin="${BENCH_BIN:-$TILTSCROLLD}"
	shift 2
	modprobe uinput
	modprobe evdev
	rm -f /var/lib/tiltscroll/calibration # every run captures its neutral at start
	FRAMES="$RUN_DIR/frames-$name.txt"
	: >"$FRAMES"
	# evread polls every 10 ms until the device exists: not while the
	# daemon is meant to be idle.
	[ "${BENCH_EVREAD:-1}" = 0 ] || frames_start
	daemon_notify_listen
	DAEMON_NOTIFY_FROM="$(wc -l <"$NOTIFY_LOG")"
	log "starting $name: ${*:+$* }$bin --config $config"
	NOTIFY_SOCKET="$NOTIFY_SOCKET_PATH" STATE_DIRECTORY=/var/lib/tiltscroll "$@" "$bin" --config "$config" --verbose \
		>"$RUN_DIR/$name.out" 2>"$RUN_DIR/$name.err" &
	DAEMON_PID=$!
	BENCH_RUN="$name"
	diag_file "$RUN_DIR/$name.err"
}

# bench_wait_device SECONDS: until the daemon's uinput device exists.
bench_wait_device() {
	local deadline=$((${EPOCHREALTIME/./} + $(usec "$1")))
	until "$HELPERS_DIR/evread" wait --timeout 0.5 >/dev/null 2>&1; do
		daemon_alive || fail "$BENCH_RUN: the daemon exited before creating its device"
		[ "${EPOCHREALTIME/./}" -le "$deadline" ] || fail "$BENCH_RUN: no uinput device within $1 s"
	done
	[ "${BENCH_EVREAD:-1}" = 0 ] || frames_wait_ready
	log "$BENCH_RUN: device up"
}

# bench_wait_pid_file SECONDS: until the daemon wrote its PID file (it does so
# before its loop starts, active or not).
bench_wait_pid_file() {
	wait_until "$1" "$BENCH_RUN: the PID file" bench_has_pid_file
}

bench_has_pid_file() {
	[ -n "$(daemon_pid_file)" ]
}

# bench_stop [SECONDS]: SIGTERM and wait for the exit (longer under valgrind).
bench_stop() {
	kill -TERM "$DAEMON_PID"
	wait_exit "$DAEMON_PID" "${1:-15}"
	[ "$EXIT_STATUS" = 0 ] || fail "$BENCH_RUN: exit status $EXIT_STATUS after SIGTERM"
	[ "${BENCH_EVREAD:-1}" = 0 ] || frames_stop
	log "$BENCH_RUN: stopped"
}

# bench_pose PITCH: the sensor's pose, then BENCH_SETTLE seconds.
bench_pose() {
	set_pose "$BENCH_DEVICE" "$1"
	sleep "$BENCH_SETTLE"
}

# bench_counters PID: "TIME VOLUNTARY NONVOLUNTARY SYSCR SYSCW RCHAR WCHAR
# THREADS CPU_NS": context switches summed over the process's threads, its
# I/O accounting (read and write system calls, bytes) and the time it ran
# on the CPU, nanoseconds (/proc/PID/schedstat: the scheduler's own count,
# finer than the clock ticks of /proc/PID/stat).
bench_counters() {
	local pid="$1" t
	t="$(now)"
	awk -v t="$t" '
		FILENAME ~ /status$/ && $1 == "voluntary_ctxt_switches:" { v += $2; threads++ }
		FILENAME ~ /status$/ && $1 == "nonvoluntary_ctxt_switches:" { nv += $2 }
		FILENAME ~ /io$/ { io[$1] = $2 }
		FILENAME ~ /schedstat$/ { ns += $1 }
		END { print t, v, nv, io["syscr:"], io["syscw:"], io["rchar:"], io["wchar:"], threads, ns }
	' /proc/"$pid"/task/*/status /proc/"$pid"/io /proc/"$pid"/task/*/schedstat
}

# bench_window KEY SECONDS: counters over a window of the running daemon;
# writes "wake KEY SECONDS VOLUNTARY NONVOLUNTARY SYSCR SYSCW RCHAR WCHAR
# FRAMES THREADS CPU_NS" (deltas; FRAMES as evread saw them), and "demand
# KEY STATE WRITES": the sample demand the daemon followed last before the
# window (its debug lines "... Hz (STATE)") and the setting writes it made
# during the window (from its "N setting writes so far").
bench_window() {
	local key="$1" a b frames w0 w1
	w0="$(bench_setting_writes)"
	a="$(bench_counters "$DAEMON_PID")"
	sleep "$2"
	b="$(bench_counters "$DAEMON_PID")"
	w1="$(bench_setting_writes)"
	read -r frames _ < <(frames_window "${a%% *}" "${b%% *}")
	bench_result "$(awk -v key="$key" -v f="$frames" -v a="$a" -v b="$b" 'BEGIN {
		split(a, x, " "); split(b, y, " ")
		printf "wake %s %.3f", key, y[1] - x[1]
		for (i = 2; i <= 7; i++) printf " %d", y[i] - x[i]
		printf " %d %d %d\n", f, y[8], y[9] - x[9]
	}')"
	log "$key: $(tail -n 1 "$RUN_DIR/results")"
	bench_result "demand $key $(bench_demand_state) $((w1 - w0))"
	log "$key: $(tail -n 1 "$RUN_DIR/results")"
}

# bench_demand_state: the state of the last sample demand the running
# daemon followed ("polling at 12.5 Hz (following)", "sampling at 2.5 Hz
# (resting)" in its --verbose log); "holding" before any change.
bench_demand_state() {
	sed -n 's/.* at [0-9.]* Hz (\([a-z]*\)).*/\1/p' "$RUN_DIR/$BENCH_RUN.err" | tail -n 1 | grep . || echo holding
}

# bench_setting_writes: the device setting writes the running daemon made
# to follow the demand so far (its last "N setting writes so far").
bench_setting_writes() {
	sed -n 's/.*; \([0-9]*\) setting writes so far.*/\1/p' "$RUN_DIR/$BENCH_RUN.err" | tail -n 1 | grep . || echo 0
}

# bench_scan_bytes DIR: bytes of one scan of the enabled channels, laid out as
# the kernel does (each element aligned to its storage size, the scan padded
# to the largest), from scan_elements/*_type and *_en.
bench_scan_bytes() {
	local dir="$1" en type f
	for en in "$dir"/scan_elements/*_en; do
		[ "$(cat "$en")" = 1 ] || continue
		f="${en%_en}"
		type="$(cat "${f}_type")"
		echo "$(cat "${f}_index") $type"
	done | sort -n | awk '{
		split($2, t, /[:\/>X]/)  # le:s16/32>>0 -> le s16 32 ...
		bytes = t[3] / 8; repeat = 1
		if ($2 ~ /X/) { split($2, r, "X"); repeat = r[2] + 0 }
		if (offset % bytes) offset += bytes - offset % bytes
		offset += bytes * repeat
		if (bytes > largest) largest = bytes
	} END {
		if (largest && offset % largest) offset += largest - offset % largest
		print offset + 0
	}'
}

# bench_inactive NAME WHEN [SWITCH]: the daemon with [Activation] When=WHEN
# that never becomes active: "wake inactive-NAME ...". With SWITCH, a uinput
# tablet-mode switch in laptop mode exists first.
bench_inactive() {
	local name="$1" when="$2" switch_fd="" config
	config="$(bench_config "inactive-$name" poll "$when")"
	if [ -n "${3:-}" ]; then
		exec {switch_fd}> >(exec "$HELPERS_DIR/uinput-switch" --state 0 >"$RUN_DIR/switch.out" 2>&1)
		wait_until 10 "the tablet-mode switch" grep -q '^created ' "$RUN_DIR/switch.out"
		log "tablet-mode switch: $(cat "$RUN_DIR/switch.out")"
	fi
	BENCH_EVREAD=0 bench_start "inactive-$name" "$config"
	bench_wait_pid_file 30
	# Off, as its status says: from then on it waits in poll() for nothing.
	expect_status 30 "inactive-$name" "$SCROLLING_OFF"
	"$HELPERS_DIR/evread" wait --timeout 0.2 >/dev/null 2>&1 &&
		fail "inactive-$name: the daemon created its uinput device, so it is active"
	BENCH_EVREAD=0 bench_window "inactive-$name" "$BENCH_WINDOW"
	cat "/proc/$DAEMON_PID/status" >"$RUN_DIR/status-inactive-$name"
	BENCH_EVREAD=0 bench_stop
	if [ -n "$switch_fd" ]; then
		exec {switch_fd}>&- # end of input: the helper removes the switch
	fi
}

# bench_active MODE: every measurement of an active daemon in capture MODE
# (poll or buffer) on $BENCH_DEVICE: three runs of the daemon.
bench_active() {
	local mode="$1" config
	config="$(bench_config "active-$mode" "$mode" always)"

	step "$mode: the plain release daemon: wake-ups, CPU, memory, system calls"
	set_pose "$BENCH_DEVICE" "$NEUTRAL"
	bench_start "plain-$mode" "$config"
	bench_wait_device 60
	# Held still in a hand at the neutral pose: the engine follows (a quarter
	# of the rate) within a second; a buffer lowers its rate 2 s later.
	sleep "$BENCH_STILL_SETTLE"
	bench_window "$mode-still" "$BENCH_WINDOW"
	bench_pose "$TILTED"
	bench_window "$mode-scroll" "$BENCH_WINDOW"
	bench_snapshot_memory "$mode"
	bench_perf "$mode"
	bench_strace "$mode"
	bench_rest "$mode"
	bench_stop

	step "$mode: allocations (alloc-count preloaded)"
	set_pose "$BENCH_DEVICE" "$NEUTRAL"
	# The counters live on a tmpfs: a shared mapping of a 9p file is not
	# written back, so the run directory only gets copies (od at each end).
	mkdir -p /run/tiltscroll-bench
	bench_start "alloc-$mode" "$config" env ALLOC_COUNT_FILE="/run/tiltscroll-bench/alloc-$mode.counters" \
		LD_PRELOAD="$BENCH_ALLOC_LIB"
	bench_wait_device 60
	sleep "$BENCH_SETTLE"
	bench_alloc_window "$mode-still" "$BENCH_WINDOW"
	bench_pose "$TILTED"
	bench_alloc_window "$mode-scroll" "$BENCH_ALLOC_WINDOW"
	bench_stop

	step "$mode: instructions (callgrind)"
	# The window is cut out of one run with callgrind_control (through vgdb):
	# zero the counters once scrolling is steady, dump them BENCH_WINDOW
	# seconds later. Samples and frames in it are callgrind's own counts of
	# calls to ScrollEngine.feed and to write.
	set_pose "$BENCH_DEVICE" "$NEUTRAL"
	BENCH_EVREAD=0 BENCH_BIN="$BENCH_VALGRIND_BIN" bench_start "callgrind-$mode" "$config" \
		valgrind --tool=callgrind --callgrind-out-file="$RUN_DIR/callgrind-$mode.out"
	BENCH_EVREAD=0 bench_wait_device 240
	sleep "$BENCH_SETTLE"
	bench_pose "$TILTED"
	callgrind_control -z "$DAEMON_PID" >/dev/null || fail "callgrind_control -z failed"
	log "callgrind-$mode: counters zeroed"
	sleep "$BENCH_WINDOW"
	callgrind_control -d "$mode-scroll" "$DAEMON_PID" >/dev/null || fail "callgrind_control -d failed"
	[ -s "$RUN_DIR/callgrind-$mode.out.1" ] || fail "no callgrind dump callgrind-$mode.out.1"
	log "callgrind-$mode: window dumped"
	BENCH_EVREAD=0 bench_stop 60
}

# bench_states MODE KEY: a plain daemon in capture MODE held still,
# scrolling and resting: "wake KEY-still", "KEY-scroll", "KEY-rest" (the
# HID sensor hub polled, beside bench_active's buffered run).
bench_states() {
	local mode="$1" key="$2" config
	config="$(bench_config "states-$key" "$mode" always)"
	step "$key: the plain release daemon in Mode=$mode held still, scrolling, resting"
	set_pose "$BENCH_DEVICE" "$NEUTRAL"
	bench_start "states-$key" "$config"
	bench_wait_device 60
	sleep "$BENCH_STILL_SETTLE"
	bench_window "$key-still" "$BENCH_WINDOW"
	bench_pose "$TILTED"
	bench_window "$key-scroll" "$BENCH_WINDOW"
	bench_rest "$key"
	bench_stop
}

# bench_rest KEY: back at the neutral pose, put down: "wake KEY-rest" once
# the engine has seen the device lie still (its long window, 5.6 s) and the
# capture followed; picked up again afterwards.
bench_rest() {
	set_pose "$BENCH_DEVICE" "$NEUTRAL"
	sleep 1
	put_down "$BENCH_DEVICE"
	sleep "$BENCH_REST_SETTLE"
	bench_window "$1-rest" "$BENCH_WINDOW"
	pick_up "$BENCH_DEVICE" "$NEUTRAL"
}

# bench_side_by_side MODE: iio-sensor-proxy claimed by monitor-sensor (as
# GNOME claims it in tablet mode) and then tiltscrolld (Mode=auto) on the
# same sensor in one guest: "pair KEY ..." lines with both processes' CPU and
# wake-ups over the same windows, the proxy alone, then with tiltscrolld held
# still, scrolling and resting. The proxy runs without debug output (which
# it would otherwise write for every sample).
bench_side_by_side() {
	local mode="$1" config
	step "$mode: side by side with iio-sensor-proxy (claimed by monitor-sensor)"
	udevd_run
	udevadm trigger --action=add --subsystem-match=iio
	udev_settle
	set_pose "$BENCH_DEVICE" "$NEUTRAL"
	SENSORPROXY_DEBUG="" sensorproxy_start
	sleep "$BENCH_SETTLE"
	DAEMON_PID="" bench_pair_window "$mode-proxy-alone" "$BENCH_WINDOW"
	config="$(bench_config "side-$mode" auto always)"
	bench_start "side-$mode" "$config"
	bench_wait_device 60
	sleep "$BENCH_STILL_SETTLE"
	bench_pair_window "$mode-side-still" "$BENCH_WINDOW"
	bench_pose "$TILTED"
	bench_pair_window "$mode-side-scroll" "$BENCH_WINDOW"
	set_pose "$BENCH_DEVICE" "$NEUTRAL"
	sleep 1
	put_down "$BENCH_DEVICE"
	sleep "$BENCH_REST_SETTLE"
	bench_pair_window "$mode-side-rest" "$BENCH_WINDOW"
	pick_up "$BENCH_DEVICE" "$NEUTRAL"
	bench_stop
	sensorproxy_stop
	udevd_stop
}

# bench_pair_window KEY SECONDS: "pair KEY SECONDS DAEMON_CPU_NS
# DAEMON_WAKEUPS DAEMON_SYSCR PROXY_CPU_NS PROXY_WAKEUPS PROXY_SYSCR STATE"
# over one window (the daemon's fields 0 and STATE "none" without one).
bench_pair_window() {
	local key="$1" a b p q state=none
	[ -z "$DAEMON_PID" ] || a="$(bench_counters "$DAEMON_PID")"
	p="$(bench_counters "$SENSORPROXY_PID")"
	sleep "$2"
	[ -z "$DAEMON_PID" ] || b="$(bench_counters "$DAEMON_PID")"
	q="$(bench_counters "$SENSORPROXY_PID")"
	[ -z "$DAEMON_PID" ] || state="$(bench_demand_state)"
	bench_result "$(awk -v key="$key" -v a="${a:-0 0 0 0 0 0 0 0 0}" -v b="${b:-0 0 0 0 0 0 0 0 0}" \
		-v p="$p" -v q="$q" -v state="$state" 'BEGIN {
		split(a, x, " "); split(b, y, " "); split(p, u, " "); split(q, v, " ")
		printf "pair %s %.3f %d %d %d %d %d %d %s\n", key, v[1] - u[1], y[9] - x[9], y[2] - x[2], y[4] - x[4],
			v[9] - u[9], v[2] - u[2], v[4] - u[4], state
	}')"
	log "$key: $(tail -n 1 "$RUN_DIR/results")"
}

# bench_snapshot_memory MODE: the daemon's memory while it scrolls.
bench_snapshot_memory() {
	cat "/proc/$DAEMON_PID/status" >"$RUN_DIR/status-$1"
	cat "/proc/$DAEMON_PID/smaps" >"$RUN_DIR/smaps-$1"
	cat "/proc/$DAEMON_PID/smaps_rollup" >"$RUN_DIR/smaps_rollup-$1"
	log "$1 memory: $(grep -E '^Vm(RSS|HWM)' "$RUN_DIR/status-$1" | tr -s '\t\n' '  ')"
}

# bench_fds NAME: which descriptor is what, for the per-descriptor counts.
bench_fds() {
	ls -l "/proc/$DAEMON_PID/fd" | awk 'NF > 2 && $(NF - 1) == "->" { print $(NF - 2), $NF }' >"$RUN_DIR/fds-$1"
}

# bench_strace MODE: every system call of a window while scrolling.
bench_strace() {
	bench_fds "strace-$1"
	if [ "$1" = buffer ]; then
		bench_result "scan-bytes $1 $(bench_scan_bytes "$(iio_dir "$BENCH_IIO")")"
	fi
	timeout -s INT "$BENCH_WINDOW" strace -f -qq -C -o "$RUN_DIR/strace-$1.txt" -p "$DAEMON_PID" || true
	log "strace-$1: $(grep -c . "$RUN_DIR/strace-$1.txt") lines"
}

# bench_perf MODE: the same kind of window's system calls counted in the
# kernel by perf stat on the syscall tracepoints, which does not stop the
# daemon at every call as strace does (under TCG strace slows each call
# enough to change the loop's timing). Counted, in this order: all calls,
# poll, poll with a zero timeout, pread64, the sample reads (pread64 of
# in_accel_z_raw in poll mode, read of /dev/iio:deviceN in buffer mode),
# read, write, write to /dev/uinput (frames); in buffer mode also the reads
# that returned exactly 1, 2, 3, 4 scans and more than 4 (the samples).
bench_perf() {
	local mode="$1" fd u sample_read scan buckets=()
	bench_fds "perf-$mode"
	if [ "$mode" = poll ]; then
		fd="$(awk '$2 ~ /in_accel_z_raw$/ { print $1 }' "$RUN_DIR/fds-perf-$mode")"
		sample_read=syscalls:sys_enter_pread64
	else
		fd="$(awk '$2 ~ /^\/dev\/iio:device/ { print $1 }' "$RUN_DIR/fds-perf-$mode")"
		sample_read=syscalls:sys_enter_read
		scan="$(bench_scan_bytes "$(iio_dir "$BENCH_IIO")")"
		[ "$scan" -gt 0 ] || fail "perf-$mode: no enabled scan elements"
		buckets=(
			-e syscalls:sys_exit_read --filter "ret == $scan"
			-e syscalls:sys_exit_read --filter "ret == $((2 * scan))"
			-e syscalls:sys_exit_read --filter "ret == $((3 * scan))"
			-e syscalls:sys_exit_read --filter "ret == $((4 * scan))"
			-e syscalls:sys_exit_read --filter "ret > $((4 * scan))"
		)
	fi
	u="$(awk '$2 == "/dev/uinput" { print $1 }' "$RUN_DIR/fds-perf-$mode")"
	[ -n "$fd" ] && [ -n "$u" ] || fail "perf-$mode: no sample or uinput descriptor in $(cat "$RUN_DIR/fds-perf-$mode")"
	mountpoint -q /sys/kernel/tracing || mount -t tracefs tracefs /sys/kernel/tracing ||
		fail "cannot mount tracefs for perf"
	perf stat -x, -o "$RUN_DIR/perf-$mode.txt" \
		-e raw_syscalls:sys_enter \
		-e syscalls:sys_enter_poll \
		-e syscalls:sys_enter_poll --filter 'timeout_msecs == 0' \
		-e syscalls:sys_enter_pread64 \
		-e "$sample_read" --filter "fd == $fd" \
		-e syscalls:sys_enter_read \
		-e syscalls:sys_enter_write \
		-e syscalls:sys_enter_write --filter "fd == $u" \
		"${buckets[@]}" \
		-p "$DAEMON_PID" -- sleep "$BENCH_WINDOW" || fail "perf stat failed"
	log "perf-$mode: $(grep -v '^#' "$RUN_DIR/perf-$mode.txt" | grep . | cut -d, -f1,3 | tr '\n' ' ')"
}

# bench_alloc_window KEY SECONDS: the alloc-count counters at both ends of a
# window (the daemon runs with them preloaded).
bench_alloc_window() {
	local mode="${1%%-*}" counters a frames
	counters="/run/tiltscroll-bench/alloc-$mode.counters"
	bench_fds "alloc-$1"
	od -An -v -w8 -t u8 "$counters" >"$RUN_DIR/alloc-$1.t1"
	a="$(now)"
	sleep "$2"
	od -An -v -w8 -t u8 "$counters" >"$RUN_DIR/alloc-$1.t2"
	read -r frames _ < <(frames_window "$a" "$(now)")
	bench_result "alloc-frames $1 $frames"
	log "alloc-$1: window of $2 s, $frames frames seen by evread"
}
