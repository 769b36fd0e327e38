# shellcheck shell=bash
# Lifecycle checks: tablet-mode switches made with helpers/uinput-switch and
# touchscreens made with helpers/uinput-touch, whether the daemon's device
# exists, and whether the daemon sleeps.

FED_DIR=/run/tiltscroll-test/fed

# fed_start KIND NAME COMMAND...: start COMMAND, a uinput helper that reads
# lines on stdin and prints "created NODE" first, and wait until it has.
# It reads its stdin from a fifo that a "sleep" holds open, and fed_send
# opens it for each line: the scenario shell never holds the writing end,
# so no later child (the daemon, evread) inherits it, and fed_stop ends the
# helper by ending the holder. Its output: $RUN_DIR/KIND-NAME.out, .err.
fed_start() {
	local kind="$1" name="$2" fifo="$FED_DIR/$1-$2"
	shift 2
	modprobe uinput
	modprobe evdev
	mkdir -p "$FED_DIR"
	rm -f "$fifo"
	mkfifo "$fifo"
	"$@" <"$fifo" >"$RUN_DIR/$kind-$name.out" 2>>"$RUN_DIR/$kind-$name.err" &
	echo $! >"$fifo.pid"
	# A pipe nobody reads keeps sleep's stdout from our own.
	sleep 3600 >"$fifo" &
	echo $! >"$fifo.holder"
	diag_file "$RUN_DIR/$kind-$name.err"
	wait_until 10 "the $kind $name" grep -q '^created ' "$RUN_DIR/$kind-$name.out"
}

# fed_send KIND NAME LINE: one line to the helper.
fed_send() {
	echo "$3" >"$FED_DIR/$1-$2" || fail "cannot write to the $1 $2"
}

# fed_stop KIND NAME: end the holder: the helper sees end of input, destroys
# its device and exits 0.
fed_stop() {
	local fifo="$FED_DIR/$1-$2" helper
	helper="$(cat "$fifo.pid")"
	kill "$(cat "$fifo.holder")"
	wait_exit "$helper" 10
	[ "$EXIT_STATUS" = 0 ] || fail "the $1 $2: exit status $EXIT_STATUS"
	rm -f "$fifo" "$fifo.pid" "$fifo.holder"
}

# fed_node KIND NAME: the helper's device node.
fed_node() {
	awk '$1 == "created" { print $2; exit }' "$RUN_DIR/$1-$2.out"
}

# switch_start NAME STATE: create a tablet-mode switch in STATE (0 laptop,
# 1 tablet) and wait until its node exists.
switch_start() {
	fed_start switch "$1" "$HELPERS_DIR/uinput-switch" --name "tiltscroll test switch $1" --state "$2"
	log "switch $1: $(fed_node switch "$1"), state $2"
}

# switch_set NAME STATE: flip the switch.
switch_set() {
	fed_send switch "$1" "$2"
}

# switch_stop NAME: remove the switch.
switch_stop() {
	fed_stop switch "$1"
}

# touch_start NAME: create a touchscreen (helpers/uinput-touch), no finger on it.
touch_start() {
	fed_start touch "$1" "$HELPERS_DIR/uinput-touch" --name "tiltscroll test touchscreen $1"
	log "touchscreen $1: $(fed_node touch "$1")"
}

# touch_send NAME down X Y | move X Y | up: one touch frame; prints the time
# the helper sent it (CLOCK_MONOTONIC, as evread's frames).
touch_send() {
	touch_frame "$1" 0 "" "${@:2}"
}

# touch_send_quietly NAME LEAD SLEEP down X Y | move X Y | up: the frame is
# sent LEAD seconds from now (the helper waits for it), and this shell is
# asleep from before then until SLEEP seconds from now; prints the time it
# was sent. Under TCG a program started costs the guest's one vCPU
# milliseconds: for a latency measured from the contact, nothing the
# scenario runs may compete with the daemon then.
touch_send_quietly() {
	local name="$1" lead="$2" pause="$3" at sent
	shift 3
	at="$(fadd "$(now)" "$lead")"
	sent="$(touch_frame "$name" "$pause" "at $at" "$@")"
	fcmp "$sent" ">=" "$at" || fail "the touchscreen $name sent '$*' at $sent, before the time asked ($at)"
	echo "$sent"
}

# touch_frame NAME PAUSE WHEN WORDS...: hands the helper "WORDS WHEN" (WHEN
# "" or "at T"), sleeps PAUSE seconds unless 0, waits until the helper has
# sent the frame and prints the time it did.
touch_frame() {
	local name="$1" pause="$2" when="$3" out="$RUN_DIR/touch-$1.out" before
	shift 3
	before="$(grep -c '^sent ' "$out" || true)"
	fed_send touch "$name" "$*${when:+ $when}"
	[ "$pause" = 0 ] || sleep "$pause"
	wait_until 5 "the touchscreen $name to send '$*'" touch_sent_more "$out" "$before"
	awk '$1 == "sent" { t = $3 } END { print t }' "$out"
}

touch_sent_more() {
	[ "$(grep -c '^sent ' "$1" || true)" -gt "$2" ]
}

# touch_stop NAME: remove the touchscreen.
touch_stop() {
	fed_stop touch "$1"
}

# device_exists: the daemon's "tiltscroll" device exists right now.
device_exists() {
	"$HELPERS_DIR/evread" wait --timeout 0 >/dev/null 2>&1
}

# expect_device_within WHAT FROM SECONDS: the device must appear (and have
# the right capabilities) within SECONDS of FROM; logs how long it took.
expect_device_within() {
	local what="$1" from="$2" limit="$3" t
	wait_until "$limit" "the daemon's device ($what)" device_exists
	t="$(now)"
	"$HELPERS_DIR/evread" caps >"$RUN_DIR/caps.txt" 2>&1 || {
		cat "$RUN_DIR/caps.txt"
		fail "$what: the daemon's input device has the wrong capabilities"
	}
	log "$what: the device appeared $(awk -v a="$t" -v b="$from" 'BEGIN { printf "%.2f", a - b }') s later"
}

# expect_device_gone_within WHAT FROM SECONDS: the device must be gone
# within SECONDS of FROM.
expect_device_gone_within() {
	local what="$1" from="$2" limit="$3"
	"$HELPERS_DIR/evread" gone --timeout "$limit" ||
		fail "$what: the daemon's input device still exists ${limit}s later"
	log "$what: the device is gone $(awk -v a="$(now)" -v b="$from" 'BEGIN { printf "%.2f", a - b }') s later"
}

# expect_no_device WHAT: no "tiltscroll" device exists now.
expect_no_device() {
	if device_exists; then
		fail "$1: a 'tiltscroll' input device exists"
	fi
	log "$1: no 'tiltscroll' input device"
}

# daemon_wakeups: the daemon's voluntary context switches so far (every
# return from a blocking poll() or read() counts one).
daemon_wakeups() {
	awk '$1 == "voluntary_ctxt_switches:" { print $2 }' "/proc/$DAEMON_PID/status"
}

# expect_asleep WHAT SECONDS: the daemon must not wake up at all for SECONDS
# (no sensor reads, no timers): its voluntary context switches stay put.
expect_asleep() {
	local what="$1" before after
	before="$(daemon_wakeups)"
	sleep "$2"
	after="$(daemon_wakeups)"
	if [ -z "$before" ] || [ -z "$after" ]; then
		fail "$what: cannot read the daemon's context switches"
	fi
	[ "$after" -eq "$before" ] ||
		fail "$what: the daemon woke $((after - before)) times in $2 s (it should sleep: no reads, no timers)"
	log "$what: the daemon slept for $2 s (voluntary context switches stayed at $after)"
}

# frames_wait_ready_count N: evread (frames --follow) has opened the
# daemon's device N times.
frames_wait_ready_count() {
	wait_until 10 "evread to open the daemon's device (time $1)" frames_ready_at_least "$1"
}

frames_ready_at_least() {
	[ "$(grep -c '^ready ' "$FRAMES")" -ge "$1" ]
}

# daemon_pid_wait: the daemon has written its PID file (it is through its
# start-up and in its loop; with scrolling off there is no device to wait for).
daemon_pid_wait() {
	wait_until 30 "the daemon's PID file" daemon_has_pid_file
}

daemon_has_pid_file() {
	[ -n "$(daemon_pid_file)" ]
}

# daemon_has_open PATH: the daemon has PATH open (a descriptor links to it).
daemon_has_open() {
	local fd
	for fd in "/proc/$DAEMON_PID/fd/"*; do
		[ "$(readlink "$fd" 2>/dev/null)" = "$1" ] && return 0
	done
	return 1
}
