#!/bin/bash
# bench-hand: what the hands of lib/pose.sh cost under TCG (numbers, no
# verdict). For kxcjk-1013 and lis3dh polled and the HID sensor hub
# buffered, the daemon runs at its neutral pose held fixed (the stub chip's
# hand idle, as the fixed register values of before) and then in a hand
# (50 samples/s streamed; the HID sensor's reports carry the model), WINDOW
# seconds each, side by side in one boot. Per window: CPU of the hand's
# process and of the daemon, the daemon's voluntary context switches, and
# the intervals between the daemon's sample reads (perf record on the read
# system call: in_accel_z_raw polled, /dev/iio:deviceN buffered). At the end
# each stub hand's own count of samples and of samples late for its grid.
# Lines "cost DEVICE HOLD ..." go to $RUN_DIR/results. Then, with no daemon,
# TRACE seconds of each sensor held in a hand at the reading pose, recorded
# by iio-record into $RUN_DIR/hand-DEVICE.trace: replayed on the host
# (tiltscrollctl replay), they show how close a hand held still comes to the
# dead zone.
# tool: measures the cost of the streaming hand
# timeout: 400
set -eu
# shellcheck source=lib.sh
. "$HARNESS_DIR/lib.sh"

WINDOW="${WINDOW:-10}"
TRACE="${TRACE:-60}"
TICKS="$(getconf CLK_TCK)"
: >"$RUN_DIR/results"
mountpoint -q /sys/kernel/tracing || mount -t tracefs tracefs /sys/kernel/tracing ||
	fail "cannot mount tracefs for perf"

# cpu_ticks PID: user + system time so far, in clock ticks.
cpu_ticks() {
	awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"
}

# window DEVICE HOLD HAND_PID: one measurement of WINDOW seconds.
window() {
	local device="$1" hold="$2" hand="$3" fd call d0 d1 h0 h1 v0 v1 t0 t1 data="$RUN_DIR/perf-$1-$2.data"
	read -r fd call < <(daemon_sample_fd)
	d0="$(cpu_ticks "$DAEMON_PID")" h0="$(cpu_ticks "$hand")" v0="$(daemon_wakeups)" t0="$(now)"
	perf record -q -o "$data" -e "syscalls:sys_enter_$call" --filter "fd == $fd" -p "$DAEMON_PID" \
		-- sleep "$WINDOW" >/dev/null 2>"$RUN_DIR/perf-$1-$2.err" || fail "perf record failed"
	d1="$(cpu_ticks "$DAEMON_PID")" h1="$(cpu_ticks "$hand")" v1="$(daemon_wakeups)" t1="$(now)"
	perf script -i "$data" -F time 2>/dev/null | awk -v device="$device" -v hold="$hold" -v s="$t0" -v e="$t1" \
		-v tick="$TICKS" -v d="$((d1 - d0))" -v h="$((h1 - h0))" -v v="$((v1 - v0))" '
		{ t = $1 + 0; if (n++) { i = (t - last) * 1000; iv[n - 1] = i; sum += i; sq += i * i } last = t }
		END {
			k = n - 1; mean = sum / k; sd = sqrt(sq / k - mean * mean)
			# p99 and max by sorting the intervals (insertion: a few hundred)
			for (a = 2; a <= k; a++) { x = iv[a]; b = a - 1; while (b > 0 && iv[b] > x) { iv[b + 1] = iv[b]; b-- } iv[b + 1] = x }
			printf "cost %s %s seconds %.2f daemon_cpu %.1f%% hand_cpu %.1f%% daemon_wakeups_per_s %.1f reads %d interval_ms mean %.2f sd %.2f p99 %.2f max %.2f\n",
				device, hold, e - s, 100 * d / tick / (e - s), 100 * h / tick / (e - s), v / (e - s), n,
				mean, sd, iv[int(0.99 * k)], iv[k]
		}' >>"$RUN_DIR/results"
	log "$(tail -n 1 "$RUN_DIR/results")"
}

# measure DEVICE IIO MODE HAND_PID_FILE: the daemon on DEVICE, fixed then in a hand.
measure() {
	local device="$1" hand
	step "$1 ($3): held fixed, then in a hand"
	pose_hold "$device" fixed
	set_pose "$device" "$NEUTRAL"
	read -r hand <"$4"
	daemon_start_scrolling "cost-$device" <<EOF
[Device]
Name=$2
Mode=$3

[Activation]
When=always
EOF
	sleep 2
	window "$device" fixed "$hand"
	pose_hold "$device" hand
	sleep 1
	window "$device" hand "$hand"
	daemon_stop
	frames_stop
	read -r n _ < <(frames_window 0 "$(now)")
	log "$device: $n frames in all (at the neutral pose, fixed and in a hand)"
}

stub_load kxcjk lis3dh
stub_add kxcjk >/dev/null
stub_add lis3dh >/dev/null
set_pose kxcjk "$NEUTRAL"
set_pose lis3dh "$NEUTRAL"
hid_start >/dev/null
measure kxcjk kxcj91008 poll "$POSE_HANDS_DIR/kxcjk/pid"
measure lis3dh lis3dh poll "$POSE_HANDS_DIR/lis3dh/pid"
measure hid accel_3d buffer "$HID_PID_FILE"

step "a hand held still at the reading pose, recorded ($TRACE s)"
for device in kxcjk hid; do
	if [ "$device" = hid ]; then iio=accel_3d; else iio=kxcj91008; fi
	pose_hold "$device" hand
	set_pose "$device" "$NEUTRAL"
	# The HID sensor streams only while its buffer is in use: iio-record polls.
	"$HELPERS_DIR/iio-record" --device "$iio" --describe "$iio held in a hand at $NEUTRAL degrees (lib/pose.sh)" \
		--output "$RUN_DIR/hand-$device.trace" --rate 50 --duration "$TRACE" 2>"$RUN_DIR/hand-$device.trace.log" ||
		fail "iio-record on $iio"
	log "$device: $(grep -vc '^#' "$RUN_DIR/hand-$device.trace") samples in $RUN_DIR/hand-$device.trace"
done

step "the stub hands' own account"
for device in kxcjk lis3dh; do
	read -r pid <"$POSE_HANDS_DIR/$device/pid"
	kill -TERM "$pid"
	wait_exit "$pid" 5
	log "$device: $(cat "$(pose_hand_log "$device")")"
	echo "account $device $(cat "$(pose_hand_log "$device")")" >>"$RUN_DIR/results"
done
pass "measured"
