# shellcheck shell=bash
# Build the test initramfs: a static busybox, the kernel modules the scenarios
# need (with their dependencies, resolved by modprobe against the unpacked
# kernel) and the guest's /init. Everything else the guest runs comes from
# the host's root, shared read-only over 9p.

# initramfs_modules: print the module files (relative to KERNEL_ROOT) needed
# by host/modules.list, dependencies first, each once.
initramfs_modules() {
	local name
	grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$HARNESS_DIR/host/modules.list" |
		while read -r name; do
			# Lines are "insmod /abs/path.ko [params]" or "builtin name".
			modprobe -d "$KERNEL_ROOT" -S "$KERNEL_RELEASE" --show-depends "$name" ||
				die "module $name not found in $KERNEL_PACKAGE $KERNEL_PACKAGE_VERSION"
		done |
		awk -v root="$KERNEL_ROOT" '$1 == "insmod" {
			path = substr($2, length(root) + 1)
			if (!(path in seen)) { seen[path] = 1; print path }
		}'
}

# initramfs_build OUTPUT: write the cpio archive.
initramfs_build() {
	local output="$1" stage path modules
	stage="$BUILD_DIR/initramfs.d"
	rm -rf "$stage"
	mkdir -p "$stage"/bin "$stage"/dev "$stage"/proc "$stage"/sys \
		"$stage"/lower "$stage"/rw "$stage"/host "$stage"/out
	modules="$stage/lib/modules/$KERNEL_RELEASE"
	mkdir -p "$modules"

	local busybox
	busybox="$(command -v busybox)" || die "busybox not found (apt-get install busybox-static)"
	# A dynamically linked busybox would need its libraries in the archive.
	if ldd "$busybox" >/dev/null 2>&1; then
		die "$busybox is dynamically linked; install busybox-static"
	fi
	cp "$busybox" "$stage/bin/busybox"
	ln -s busybox "$stage/bin/sh"

	initramfs_modules >"$BUILD_DIR/initramfs.modules"
	while read -r path; do
		mkdir -p "$stage/$(dirname "$path")"
		cp "$KERNEL_ROOT/$path" "$stage/$path"
	done <"$BUILD_DIR/initramfs.modules"
	for path in modules.order modules.builtin modules.builtin.modinfo; do
		cp "$KERNEL_ROOT/lib/modules/$KERNEL_RELEASE/$path" "$modules/"
	done
	# modules.dep for the subset, so busybox modprobe in /init and the host's
	# kmod modprobe in the chroot (the same tree is bind-mounted there) agree.
	depmod -b "$stage" "$KERNEL_RELEASE"

	install -m 0755 "$HARNESS_DIR/guest/init" "$stage/init"

	(cd "$stage" && find . -print | LC_ALL=C sort | cpio -o -H newc --quiet) >"$output.tmp"
	mv "$output.tmp" "$output"
}
