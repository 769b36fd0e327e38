# shellcheck shell=bash
# Boot the guest once for one scenario.
#
# TCG only (KVM does not work on the machines this runs on). The kernel console
# goes to console.log; the scenario's output and exit status come back through
# the writable 9p share of the run directory (scenario.log, status). QEMU runs
# under a hard wall-clock timeout so a hung guest cannot hang the suite.

# qemu_write_env RUN_DIR SCENARIO GUEST_TIMEOUT: the variables the guest exports.
qemu_write_env() {
	local run_dir="$1" scenario="$2" guest_timeout="$3" name value
	: >"$run_dir/guest.env"
	for name in SCENARIO RUN_DIR HARNESS_DIR PROJECT_DIR HELPERS_DIR TILTSCROLLD TILTSCROLLCTL \
		KERNEL_PACKAGE KERNEL_PACKAGE_VERSION GUEST_TIMEOUT; do
		case "$name" in
		SCENARIO) value="$scenario" ;;
		RUN_DIR) value="$run_dir" ;;
		GUEST_TIMEOUT) value="$guest_timeout" ;;
		*) value="${!name}" ;;
		esac
		case "$value" in
		*"'"* | *[[:space:]]*) die "$name contains a quote or white space: $value" ;;
		esac
		printf "export %s='%s'\n" "$name" "$value" >>"$run_dir/guest.env"
	done
}

# qemu_boot RUN_DIR SCENARIO TIMEOUT: boot, wait, return QEMU's exit status
# (124 when the timeout killed it).
qemu_boot() {
	local run_dir="$1" scenario="$2" timeout="$3"
	# The guest gives up a little before the host kills it.
	qemu_write_env "$run_dir" "$scenario" "$((timeout - 15))"
	timeout --kill-after=5 "$timeout" \
		qemu-system-x86_64 \
		-M pc -accel tcg -smp 1 -m 512M \
		-nodefaults -no-reboot -display none -no-user-config \
		-kernel "$KERNEL_IMAGE" \
		-initrd "$BUILD_DIR/initramfs.cpio" \
		-append "console=ttyS0 quiet panic=-1 no_timer_check rdinit=/init" \
		-serial "file:$run_dir/console.log" \
		-virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap" \
		-virtfs "local,path=$run_dir,mount_tag=out,security_model=none" \
		</dev/null >"$run_dir/qemu.log" 2>&1
}
