# shellcheck shell=bash
# The tilt contract every capture path must keep (issue 3, scenarios 1 and 2),
# asserted on the frames of the daemon's own uinput device:
#   - held at the neutral pose it captured at start: no frames at all;
#   - tilting the top edge away from the user: negative REL_WHEEL_HI_RES, more
#     of it at a larger angle; towards the user: positive;
#   - back at neutral: silence within half a second;
#   - SIGUSR1 makes the current pose neutral (saved in the state directory):
#     silence there, and a pose that was inside the old dead zone now scrolls;
#   - SIGTERM: exit 0, device gone, and every IIO setting the daemon may
#     have changed (sampling frequency, buffer, channels, trigger) restored.
# Defaults assumed: dead zone 4 degrees, full speed at 25 degrees.

NEUTRAL=30 # a reading pose: top edge 30 degrees away from upright

# hold DEVICE PITCH SECONDS: take the pose and keep it. HOLD_START is the
# moment before the sensor changed, HOLD_FROM the moment it had the new
# values, HOLD_TO the end of the hold.
hold() {
	# shellcheck disable=SC2034 # for the caller
	HOLD_START="$(now)"
	set_pose "$1" "$2"
	HOLD_FROM="$(now)"
	sleep "$3"
	HOLD_TO="$(now)"
}

# expect_rest_after WHAT SINCE EVENT WITHIN LIE: the device lies there
# (the behaviour under test) WITHIN + LIE seconds after SINCE, when EVENT
# happened ("coming to rest", "the hand let go"); logs when the last frame
# came, then expects no frame from WITHIN seconds after SINCE on.
expect_rest_after() {
	local what="$1" since="$2" event="$3" within="$4" last
	sleep "$(fadd "$within" "$5")"
	last="$(awk -v a="$(fadd "$since" -5)" '$1 == "frame" && $2 >= a { t = $2 } END { print t }' "$FRAMES")"
	if [ -n "$last" ]; then
		log "$what: last frame $(awk -v a="$last" -v b="$since" 'BEGIN { printf "%.2f", a - b }') s after $event"
	else
		log "$what: no frame from 5 s before $event on"
	fi
	expect_silence "$what, from $within s after $event" "$(fadd "$since" "$within")" "$(now)"
}

# expect_silence WHAT FROM TO: no frame in the window.
expect_silence() {
	local n
	read -r n _ < <(frames_window "$2" "$3")
	if [ "$n" -ne 0 ]; then
		frames_show "$2" "$3"
		fail "$1: $n frames in a window that must be silent"
	fi
	log "$1: silent"
}

# expect_scroll WHAT SIGN FROM TO: prints the rate (hi-res units/s) of the
# window after checking it is non-zero with the given sign (- or +) and that
# REL_WHEEL kept up with the hi-res total (within one detent either side of
# the remainder carried in).
expect_scroll() {
	local what="$1" sign="$2" n hires wheel rate
	read -r n hires wheel _ < <(frames_window "$3" "$4")
	rate="$(frames_rate "$3" "$4")"
	local wrong=0
	case "$sign" in
	-) [ "$hires" -lt 0 ] || wrong=1 ;;
	+) [ "$hires" -gt 0 ] || wrong=1 ;;
	*) fail "expect_scroll: sign must be - or +, not '$sign'" ;;
	esac
	if [ "$wrong" = 1 ]; then
		frames_show "$3" "$4" >&2
		fail "$what: hi-res sum $hires over $n frames, expected sign $sign"
	fi
	local drift=$((hires - 120 * wheel))
	[ "${drift#-}" -lt 240 ] || fail "$what: REL_WHEEL $wheel does not follow REL_WHEEL_HI_RES $hires"
	log "$what: $n frames, hi-res $hires, detents $wheel, $rate units/s" >&2
	echo "$rate"
}

# tilt_contract DEVICE MODE: DEVICE is a stub driver name or "hid", already
# created; MODE the [Device] Mode= to run the daemon in.
tilt_contract() {
	local device="$1" mode="$2" iio dir before config t r_small r_large r_towards
	if [ "$device" = hid ]; then iio=accel_3d; else
		driver_info "$device"
		iio="$DRV_IIO"
	fi
	dir="$(iio_dir "$iio")"
	before="$(iio_settings "$dir")"
	log "IIO settings before the daemon: $(echo "$before" | tr '\n' ' ')"

	set_pose "$device" "$NEUTRAL"
	config="$(daemon_config tilt <<EOF
[Device]
Name=$iio
Mode=$mode

[Activation]
When=always
EOF
)"

	step "start at a reading pose ($NEUTRAL degrees); nothing scrolls"
	frames_start
	daemon_start "$config"
	daemon_wait_device
	frames_wait_ready
	[ -n "$(daemon_pid_file)" ] || fail "no PID file with the daemon's PID in /run/tiltscroll/"
	t="$(now)"
	# Held still at the neutral pose for 2 s: nothing may scroll (behaviour).
	sleep 2
	expect_silence "at rest at the neutral pose" "$t" "$(now)"
	if [ "$mode" = buffer ]; then
		[ "$(cat "$dir/buffer/enable")" = 1 ] || fail "Mode=buffer but the IIO buffer of $iio is not enabled"
		log "the daemon reads through the IIO buffer"
	fi

	step "tilt away from the user: negative, and more at a larger angle"
	hold "$device" $((NEUTRAL + 10)) 3
	r_small="$(expect_scroll "10 degrees away" - "$(fadd "$HOLD_FROM" 1)" "$HOLD_TO")"
	hold "$device" "$NEUTRAL" 2
	expect_silence "back at neutral, from 0.5 s on" "$(fadd "$HOLD_FROM" 0.5)" "$HOLD_TO"
	hold "$device" $((NEUTRAL + 20)) 3
	r_large="$(expect_scroll "20 degrees away" - "$(fadd "$HOLD_FROM" 1)" "$HOLD_TO")"
	fcmp "$r_large" "<" "$r_small" ||
		fail "20 degrees away scrolls at $r_large units/s, not faster than 10 degrees ($r_small)"
	hold "$device" "$NEUTRAL" 2
	expect_silence "back at neutral, from 0.5 s on" "$(fadd "$HOLD_FROM" 0.5)" "$HOLD_TO"

	step "tilt towards the user: positive"
	hold "$device" $((NEUTRAL - 10)) 3
	r_towards="$(expect_scroll "10 degrees towards" + "$(fadd "$HOLD_FROM" 1)" "$HOLD_TO")"
	hold "$device" "$NEUTRAL" 2
	expect_silence "back at neutral, from 0.5 s on" "$(fadd "$HOLD_FROM" 0.5)" "$HOLD_TO"
	log "rates: 10 away $r_small, 20 away $r_large, 10 towards $r_towards units/s"

	step "SIGUSR1 at a new pose makes it neutral"
	hold "$device" $((NEUTRAL + 15)) 1.5
	rm -f /var/lib/tiltscroll/calibration
	kill -USR1 "$DAEMON_PID"
	t="$(now)"
	wait_until 5 "the pose SIGUSR1 made neutral to be saved" test -s /var/lib/tiltscroll/calibration
	# Silent there for 2 s (the behaviour under test).
	sleep 2
	expect_silence "at the new neutral ($((NEUTRAL + 15)) degrees), from 0.5 s after SIGUSR1" "$(fadd "$t" 0.5)" "$(now)"
	# 3 degrees from the old neutral (its dead zone), 12 towards from the new.
	hold "$device" $((NEUTRAL + 3)) 3
	expect_scroll "12 degrees towards the new neutral" + "$(fadd "$HOLD_FROM" 1)" "$HOLD_TO" >/dev/null
	hold "$device" $((NEUTRAL + 15)) 2
	expect_silence "back at the new neutral, from 0.5 s on" "$(fadd "$HOLD_FROM" 0.5)" "$HOLD_TO"

	step "SIGTERM: clean exit, device gone, IIO settings restored"
	daemon_alive || fail "the daemon died during the scenario"
	# What the daemon changed, so the restore check below is seen to matter.
	log "IIO settings while the daemon runs: $(diff <(echo "$before") <(iio_settings "$dir") | sed -n 's/^> //p' | tr '\n' ' ')"
	daemon_stop
	frames_stop
	frames_check_shape
	iio_expect_settings "$dir" "$before" "IIO settings of $iio after SIGTERM"
	if [ -n "$before" ]; then
		log "IIO settings restored: $(echo "$before" | tr '\n' ' ')"
	else
		log "$iio has no sampling frequency, buffer or trigger to restore"
	fi
	pass "tilt contract kept on $iio in $mode mode"
}
