# shellcheck shell=bash
# Output, failure, time and background processes.

SCENARIO_START="${EPOCHREALTIME/./}"
DIAG_FILES=()

# log MESSAGE: a line stamped with seconds since the scenario started.
log() {
	local t=$((${EPOCHREALTIME/./} - SCENARIO_START))
	printf '[%3d.%03d] %s\n' $((t / 1000000)) $((t % 1000000 / 1000)) "$*"
}

step() {
	printf '\n'
	log "== $*"
}

# diag_file PATH: print this file when the scenario fails.
diag_file() {
	DIAG_FILES+=("$1")
}

# fail MESSAGE: the scenario failed; show why and everything registered.
# All on stderr, so it is seen even when fail runs inside $(...).
fail() {
	local f
	{
		log "FAIL: $*"
		for f in "${DIAG_FILES[@]}"; do
			printf '\n--- %s\n' "$f"
			if [ -s "$f" ]; then tail -n 60 "$f"; else echo "(empty or missing)"; fi
		done
		printf '\n--- kernel messages (last 30)\n'
		dmesg | tail -n 30
	} >&2
	exit 1
}

pass() {
	log "PASS: $*"
}

# now: CLOCK_MONOTONIC in seconds, as evread stamps frames.
now() {
	"$HELPERS_DIR/monotime"
}

# usec SECONDS: whole microseconds, for deadlines against EPOCHREALTIME.
usec() {
	awk -v s="$1" 'BEGIN { printf "%d\n", s * 1000000 }'
}

# wait_until SECONDS DESCRIPTION COMMAND...: retry every 50 ms, fail on timeout.
wait_until() {
	local limit="$1" what="$2" deadline
	shift 2
	deadline=$((${EPOCHREALTIME/./} + $(usec "$limit")))
	until "$@"; do
		if [ "${EPOCHREALTIME/./}" -gt "$deadline" ]; then
			fail "timed out after ${limit}s waiting for $what"
		fi
		sleep 0.05
	done
}

# wait_exit PID SECONDS: wait for a child of this shell to end and set
# EXIT_STATUS to its exit status, or to "timeout" if it is still running
# after SECONDS. (Not inside $(...): a subshell cannot wait for our children.)
wait_exit() {
	local pid="$1" deadline
	deadline=$((${EPOCHREALTIME/./} + $(usec "$2")))
	EXIT_STATUS=0
	while kill -0 "$pid" 2>/dev/null; do
		# A zombie child still answers kill -0; /proc tells them apart.
		[ "$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)" = Z ] && break
		if [ "${EPOCHREALTIME/./}" -gt "$deadline" ]; then
			EXIT_STATUS=timeout
			return 0
		fi
		sleep 0.05
	done
	# shellcheck disable=SC2034 # for the caller
	wait "$pid" || EXIT_STATUS=$?
}

# float comparisons through awk: fcmp A OP B (OP one of < <= > >= ==).
fcmp() {
	awk -v a="$1" -v b="$3" -v op="$2" 'BEGIN {
		if (op == "<") r = a < b; else if (op == "<=") r = a <= b
		else if (op == ">") r = a > b; else if (op == ">=") r = a >= b
		else if (op == "==") r = a == b; else r = 0
		exit !r }'
}

# fadd A B: A + B with six decimals.
fadd() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f\n", a + b }'
}
