# shellcheck shell=bash
# Finding IIO devices and reading their attributes the way the ABI defines them.

# iio_dir NAME: the sysfs directory of the IIO device whose name is NAME
# (empty output if there is none).
iio_dir() {
	local dir name
	for dir in /sys/bus/iio/devices/iio:device*; do
		[ -e "$dir/name" ] || continue # no match: the glob itself
		# read, not cat: no process per device (scenarios call this often).
		read -r name <"$dir/name" || continue
		if [ "$name" = "$1" ]; then
			echo "$dir"
			return 0
		fi
	done
	return 0
}

# iio_wait NAME [SECONDS]: wait for the device, print its directory.
iio_wait() {
	local name="$1" limit="${2:-10}"
	wait_until "$limit" "IIO device $name" iio_exists "$name"
	iio_dir "$name"
}

iio_exists() {
	[ -n "$(iio_dir "$1")" ]
}

# iio_raw DIR: "x y z" from in_accel_{x,y,z}_raw.
iio_raw() {
	local x y z
	read -r x <"$1/in_accel_x_raw" && read -r y <"$1/in_accel_y_raw" &&
		read -r z <"$1/in_accel_z_raw" && echo "$x $y $z"
}

# iio_axis_attr DIR AXIS KIND: the value of the per-axis attribute
# (in_accel_x_scale), else the shared one (in_accel_scale), else the bare one
# (scale), else DEFAULT from the 4th argument.
iio_axis_attr() {
	local dir="$1" axis="$2" kind="$3" default="$4" f
	for f in "in_accel_${axis}_$kind" "in_accel_$kind" "$kind"; do
		if [ -r "$dir/$f" ]; then
			cat "$dir/$f"
			return 0
		fi
	done
	echo "$default"
}

# iio_sampling_frequency_file DIR: the device's sampling frequency attribute,
# whichever name the driver uses; empty if it has none.
iio_sampling_frequency_file() {
	local f
	for f in in_accel_sampling_frequency sampling_frequency; do
		if [ -e "$1/$f" ]; then
			echo "$1/$f"
			return 0
		fi
	done
}

# iio_settings DIR: one line per setting a capture may change and must
# restore (sampling frequency, buffer, channels, trigger, the clock of the
# scan timestamps, a HID hub's change sensitivity), "name=value".
iio_settings() {
	local dir="$1" f value
	# Shell builtins only: scenarios call this often and every process
	# costs under TCG. read drops the NUL byte that current_timestamp_clock
	# ends with (6.1 reads "realtime\n\0").
	f="$(iio_sampling_frequency_file "$dir")"
	if [ -n "$f" ]; then
		read -r value <"$f" || true
		echo "${f##*/}=$value"
	fi
	# A HID hub without a change sensitivity answers the read of
	# in_accel_hysteresis with EINVAL: it shows as empty, every time.
	for f in "$dir"/buffer/enable "$dir"/buffer/length "$dir"/scan_elements/*_en \
		"$dir"/trigger/current_trigger "$dir"/current_timestamp_clock "$dir"/in_accel_hysteresis; do
		[ -r "$f" ] || continue
		value=""
		read -r value <"$f" 2>/dev/null || true
		echo "${f#"$dir"/}=$value"
	done
	return 0
}

# iio_expect_settings DIR BEFORE WHAT: the settings of DIR are BEFORE (as
# iio_settings printed them earlier); otherwise show the difference and fail
# with "WHAT not restored".
iio_expect_settings() {
	local after
	after="$(iio_settings "$1")"
	if [ "$after" != "$2" ]; then
		diff <(echo "$2") <(echo "$after") || true
		fail "$3 not restored"
	fi
}
