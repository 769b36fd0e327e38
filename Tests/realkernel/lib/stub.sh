# shellcheck shell=bash
# Real accelerometer drivers on an emulated SMBus (i2c-stub).
#
# i2c-stub keeps one 16-bit word per register: byte reads see its low byte,
# word reads the whole word, I2C block reads the low bytes of consecutive
# registers. Drivers differ in which they use, so helpers/hand writes every
# sample both ways (the pose library, lib/pose.sh, drives it). busybox's i2c
# tools take bare numbers as hex, so every number passed to them is written
# 0x...

# driver_info DRIVER: set the DRV_* variables describing one driver.
#   DRV_MODULE   kernel module         DRV_DEVICE  name for new_device
#   DRV_ADDR     SMBus address         DRV_IIO     IIO device name
#   DRV_ID       "REG VALUE" to preset so the probe accepts the chip (or empty)
#   DRV_DATA     first data register   DRV_ENDIAN  le or be
#   DRV_SHIFT    bits the sample is shifted left in its 16-bit register
#   DRV_BITS     bits of the sample
#   DRV_READS    how the driver reads a sample: word (SMBus word reads) or
#                block (I2C block reads, regmap bulk reads)
# shellcheck disable=SC2034 # the layout is read by lib/pose.sh
driver_info() {
	DRV_ID=""
	case "$1" in
	kxcjk)
		# Shared in_accel_scale, in_accel_mount_matrix; the chip of many Intel 2-in-1s.
		DRV_MODULE=kxcjk-1013 DRV_DEVICE=kxcj91008 DRV_ADDR=0x0f DRV_IIO=kxcj91008
		DRV_DATA=0x06 DRV_ENDIAN=le DRV_SHIFT=4 DRV_BITS=12 DRV_READS=word
		;;
	lis3dh)
		# Per-axis scale, mount_matrix, sampling_frequency defaulting to 1 Hz.
		# st_sensors sets bit 7 of the register address for its reads.
		DRV_MODULE=st_accel_i2c DRV_DEVICE=lis3dh DRV_ADDR=0x18 DRV_IIO=lis3dh
		DRV_ID="0x8f 0x33" DRV_DATA=0xa8 DRV_ENDIAN=le DRV_SHIFT=4 DRV_BITS=12 DRV_READS=block
		;;
	da280)
		# 14-bit, sysfs only: no buffer, no sampling frequency.
		DRV_MODULE=da280 DRV_DEVICE=da280 DRV_ADDR=0x27 DRV_IIO=da280
		DRV_ID="0x01 0x13" DRV_DATA=0x02 DRV_ENDIAN=le DRV_SHIFT=2 DRV_BITS=14 DRV_READS=word
		;;
	bmc150)
		DRV_MODULE=bmc150-accel-i2c DRV_DEVICE=bmc150_accel DRV_ADDR=0x10 DRV_IIO=bmc150_accel
		DRV_ID="0x00 0xfa" DRV_DATA=0x02 DRV_ENDIAN=le DRV_SHIFT=4 DRV_BITS=12 DRV_READS=block
		;;
	mxc4005)
		# Big-endian registers, no mount matrix, no sampling frequency.
		DRV_MODULE=mxc4005 DRV_DEVICE=mxc4005 DRV_ADDR=0x15 DRV_IIO=mxc4005
		DRV_DATA=0x03 DRV_ENDIAN=be DRV_SHIFT=4 DRV_BITS=12 DRV_READS=block
		;;
	*)
		fail "unknown stub driver '$1' (kxcjk lis3dh da280 bmc150 mxc4005)"
		;;
	esac
}

# stub_load DRIVER...: load i2c-stub with a chip at each driver's address
# (the addresses are fixed when the module loads), plus i2c-dev for i2cset.
stub_load() {
	local addrs="" d
	for d in "$@"; do
		driver_info "$d"
		addrs="${addrs:+$addrs,}$DRV_ADDR"
	done
	modprobe i2c-dev
	modprobe i2c-stub chip_addr="$addrs" || fail "modprobe i2c-stub chip_addr=$addrs failed"
	STUB_BUS="$(stub_bus)"
	[ -n "$STUB_BUS" ] || fail "i2c-stub loaded but no adapter named 'SMBus stub driver'"
	log "i2c-stub on bus $STUB_BUS with chips at $addrs"
}

# stub_bus: the number N of the i2c-N adapter that is the stub.
stub_bus() {
	local dir
	for dir in /sys/bus/i2c/devices/i2c-*; do
		if [ "$(cat "$dir/name" 2>/dev/null)" = "SMBus stub driver" ]; then
			echo "${dir##*/i2c-}"
			return 0
		fi
	done
}

# stub_add DRIVER: preset the chip id, load the driver, create the device
# (the probe runs synchronously in new_device) and print its IIO directory.
stub_add() {
	local dir
	driver_info "$1"
	if [ -n "$DRV_ID" ]; then
		# shellcheck disable=SC2086 # "REG VALUE"
		busybox i2cset -f -y "$STUB_BUS" "$DRV_ADDR" $DRV_ID || fail "presetting the $1 chip id"
	fi
	modprobe "$DRV_MODULE" || fail "modprobe $DRV_MODULE failed"
	echo "$DRV_DEVICE $DRV_ADDR" >"/sys/bus/i2c/devices/i2c-$STUB_BUS/new_device" ||
		fail "new_device $DRV_DEVICE $DRV_ADDR failed"
	dir="$(iio_dir "$DRV_IIO")"
	[ -n "$dir" ] || fail "$DRV_DEVICE did not probe (no IIO device named $DRV_IIO)"
	echo "$dir"
}

# stub_remove DRIVER: delete the i2c device (the driver unbinds, the IIO
# device goes away); the stub chip and its registers stay.
stub_remove() {
	driver_info "$1"
	echo "$DRV_ADDR" >"/sys/bus/i2c/devices/i2c-$STUB_BUS/delete_device" ||
		fail "delete_device $DRV_ADDR failed"
}

# stub_client DRIVER: the sysfs name of the i2c client, e.g. 3-000f.
stub_client() {
	driver_info "$1"
	printf '%s-%04x\n' "$STUB_BUS" "$DRV_ADDR"
}
