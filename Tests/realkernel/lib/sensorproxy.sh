# shellcheck shell=bash
# iio-sensor-proxy, the auto-rotation service of GNOME and KDE, run from the
# host's root as a distribution runs it: a system D-Bus, udevd with its
# rules (80-iio-sensor-proxy.rules tags the accelerometer), the daemon, and
# monitor-sensor as the client that claims the accelerometer (as the
# desktop does in tablet mode), which makes the proxy read it.

# sensorproxy_start: D-Bus, iio-sensor-proxy and monitor-sensor (udevd must
# run already); waits until monitor-sensor has the accelerometer.
# iio-sensor-proxy logs its debug messages (a line per sample) unless
# SENSORPROXY_DEBUG is set empty (as a benchmark of its CPU sets it).
sensorproxy_start() {
	system_bus_start
	G_MESSAGES_DEBUG="${SENSORPROXY_DEBUG-all}" /usr/sbin/iio-sensor-proxy >"$RUN_DIR/iio-sensor-proxy.log" 2>&1 &
	SENSORPROXY_PID=$!
	diag_file "$RUN_DIR/iio-sensor-proxy.log"
	stdbuf -oL monitor-sensor >"$RUN_DIR/monitor-sensor.out" 2>&1 &
	MONITOR_PID=$!
	diag_file "$RUN_DIR/monitor-sensor.out"
	wait_until 20 "monitor-sensor to get the accelerometer" \
		grep -q '^=== Has accelerometer' "$RUN_DIR/monitor-sensor.out"
	log "monitor-sensor: $(grep '^=== Has accelerometer' "$RUN_DIR/monitor-sensor.out")"
}

# sensorproxy_orientation_changes: how many orientation changes monitor-sensor
# has reported so far.
sensorproxy_orientation_changes() {
	grep -c 'Accelerometer orientation changed:' "$RUN_DIR/monitor-sensor.out" || true
}

# expect_orientation WHAT ORIENTATION FROM_COUNT SECONDS: monitor-sensor must
# report a change to ORIENTATION (normal, left-up, ...) after its
# FROM_COUNT-th change, within SECONDS.
expect_orientation() {
	local what="$1" want="$2" from="$3" t
	t="$(now)"
	wait_until "$4" "monitor-sensor to report '$want' ($what)" sensorproxy_reported "$want" "$from"
	log "$what: monitor-sensor reported $want $(awk -v a="$(now)" -v b="$t" 'BEGIN { printf "%.2f", a - b }') s later"
}

sensorproxy_reported() {
	grep 'Accelerometer orientation changed:' "$RUN_DIR/monitor-sensor.out" | tail -n +"$(($2 + 1))" |
		grep -q "changed: $1\$"
}

# sensorproxy_stop: monitor-sensor, iio-sensor-proxy, D-Bus, in that order.
sensorproxy_stop() {
	local pid
	for pid in "$MONITOR_PID" "$SENSORPROXY_PID" "$DBUS_PID"; do
		kill -TERM "$pid" 2>/dev/null || true
		wait_exit "$pid" 10
	done
}
