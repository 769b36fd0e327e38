# shellcheck shell=bash
# Shared by the umockdev suites (sourced once `root` names the checkout):
# the binaries they run, and waiting on what the daemon reports instead of
# sleeping.
#
# The daemon runs outside systemd here, so the suites hold the other end of
# its notify socket (Tests/realkernel/helpers/notify-listen, built with
# gcc): every STATUS= it sends, the line `systemctl status` would show (the
# sensor, the state and why, a configuration that did not load), lands in a
# file, and a suite waits, with a deadline, for the status it expects. The
# daemon pushes each change itself, so waiting never wakes it.

# No system bus unless a suite starts its own (bus_start): the machine's
# would bring its logind, and where seat0 has no active session (a CI
# runner, a login over ssh) the daemon pauses (issue 24), as it must; the
# suites here are about sensors, not sessions (Tests/session is).
export DBUS_SYSTEM_BUS_ADDRESS="${DBUS_SYSTEM_BUS_ADDRESS:-unix:path=/nonexistent/tiltscroll-umockdev-tests/no-system-bus}"

# umockdev_binaries [SWIFT BUILD ARGUMENTS]: builds unless SKIP_BUILD is set;
# DAEMON and CTL are the daemon and its client.
umockdev_binaries() {
    if [ -z "${SKIP_BUILD:-}" ]; then
        swift build "$@" >/dev/null
    fi
    local bin
    bin="$(swift build --show-bin-path)"
    DAEMON=$bin/tiltscrolld CTL=$bin/tiltscrollctl
}

# notify_build DIRECTORY: builds notify-listen there (NOTIFY_LISTEN).
notify_build() {
    NOTIFY_LISTEN=$1/notify-listen
    gcc -std=gnu11 -O2 -Wall -Wextra -Werror -o "$NOTIFY_LISTEN" "$root/Tests/realkernel/helpers/notify-listen.c"
}

# microseconds SECONDS: SECONDS (a decimal such as 2 or 0.25) in whole microseconds.
microseconds() {
    local whole=${1%.*} fraction=0
    [[ $1 == *.* ]] && fraction=${1#*.}
    fraction=${fraction}000000
    echo $((10#${whole:-0} * 1000000 + 10#${fraction:0:6}))
}

# wait_for SECONDS COMMAND...: runs COMMAND every 50 ms until it succeeds;
# fails once SECONDS have passed.
wait_for() {
    local deadline=$((${EPOCHREALTIME/./} + $(microseconds "$1")))
    shift
    until "$@"; do
        [ "${EPOCHREALTIME/./}" -lt "$deadline" ] || return 1
        sleep 0.05
    done
}

# notify_start PREFIX: a listener bound at PREFIX.sock (NOTIFY_SOCKET_PATH,
# to give the daemon as NOTIFY_SOCKET), writing what it hears to
# PREFIX.notify (NOTIFY_FILE); NOTIFY_PID is its process.
notify_start() {
    NOTIFY_SOCKET_PATH=$1.sock NOTIFY_FILE=$1.notify
    : >"$NOTIFY_FILE"
    "$NOTIFY_LISTEN" "$NOTIFY_SOCKET_PATH" >>"$NOTIFY_FILE" 2>"$1.notify.err" &
    NOTIFY_PID=$!
    wait_for 5 test -S "$NOTIFY_SOCKET_PATH" || {
        echo "notify-listen did not bind $NOTIFY_SOCKET_PATH: $(cat "$1.notify.err")" >&2
        return 1
    }
}

# notify_stop: the listener ends (after the daemon sent STOPPING=1, or not).
notify_stop() {
    [ -n "${NOTIFY_PID:-}" ] || return 0
    kill -TERM "$NOTIFY_PID" 2>/dev/null || true
    wait "$NOTIFY_PID" 2>/dev/null || true
    NOTIFY_PID=
}

# status_now: the last status the daemon sent (empty before its first).
status_now() {
    sed -n 's/^STATUS=//p' "$NOTIFY_FILE" | tail -n 1
}

# status_matches ERE: the last status matches the extended regular expression.
status_matches() {
    [[ "$(status_now)" =~ $1 ]]
}

# notified LINE: the daemon sent LINE (READY=1, STOPPING=1) at some point.
notified() {
    grep -qxF -- "$1" "$NOTIFY_FILE"
}

# wait_status SECONDS ERE: until the last status matches ERE.
wait_status() {
    wait_for "$1" status_matches "$2"
}

# on_terminal_until OUT ERE COMMAND...: COMMAND on a pseudo-terminal
# (script(1)), its output in OUT, interrupted as Ctrl-C does (SIGINT) once
# OUT matches ERE, or after 20 s; returns once it has ended.
on_terminal_until() {
    local out=$1 pattern=$2 session child
    shift 2
    script -qec "exec $*" /dev/null </dev/null >"$out" 2>&1 &
    session=$!
    wait_for 20 grep -qsE -- "$pattern" "$out" || true
    child=$(pgrep -P "$session" || true)
    if [ -n "$child" ]; then kill -INT "$child" 2>/dev/null || true; fi
    wait "$session" || true
}

# bus_start DIRECTORY: a private system bus (dbus-daemon) with the system
# bus's default policy and the project's (Tests/dbus/system-bus-policy.conf),
# where the user running the suite may own the daemon's name as root may (a
# developer runs these suites as themselves). Exports
# DBUS_SYSTEM_BUS_ADDRESS, which the daemon and tiltscrollctl honour; BUS_PID.
bus_start() {
    local dir=$1
    cat >"$dir/bus.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=$dir/bus</listen>
  <auth>EXTERNAL</auth>
  <include>$root/Tests/dbus/system-bus-policy.conf</include>
  <policy user="$(id -un)">
    <allow own="io.github.tiltscroll.TiltScroll1"/>
  </policy>
</busconfig>
EOF
    dbus-daemon --nofork --nopidfile --config-file="$dir/bus.conf" >"$dir/bus.log" 2>&1 &
    BUS_PID=$!
    export DBUS_SYSTEM_BUS_ADDRESS=unix:path=$dir/bus
    # Up once it answers: its socket exists from bind(2) on, a moment
    # before listen(2).
    wait_for 10 busctl call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus GetId >/dev/null 2>&1 || {
        echo "dbus-daemon did not start: $(cat "$dir/bus.log")" >&2
        return 1
    }
}

bus_stop() {
    [ -n "${BUS_PID:-}" ] || return 0
    kill -TERM "$BUS_PID" 2>/dev/null || true
    wait "$BUS_PID" 2>/dev/null || true
    BUS_PID=
}

# The status of a daemon that captures and has read its first sample: it
# names the intent ("; holding: in a hand, tilt scrolls"), and the pose it
# was in is the neutral one.
SCROLLING='^Scrolling with .* \([a-z]+ capture\); [a-z]+: '
# Switched off, or not wanted by [Activation].
SCROLLING_OFF='^Scrolling off: '
# Wanted, but no sensor can be read (it failed, or went away).
WAITING_FOR_SENSOR='(; trying again|^Waiting for an accelerometer)$'
