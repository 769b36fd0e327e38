# shellcheck shell=bash
# Fetch the stock Debian kernel once and keep it unpacked in a cache.
#
# The kernel is never installed on the host: the package is downloaded with
# apt-get, unpacked with dpkg-deb and given the modules.dep that the .deb does
# not ship. Everything lives under the cache directory, so deleting it and
# running again rebuilds it from scratch.

# kernel_resolve_package: print "PACKAGE VERSION" for the kernel to use.
# TILTSCROLL_KERNEL_PACKAGE pins a versioned package (linux-image-6.1.0-NN-amd64).
kernel_resolve_package() {
	local package version
	package="${TILTSCROLL_KERNEL_PACKAGE:-}"
	if [ -z "$package" ]; then
		# The meta package depends on exactly one versioned image package.
		package="$(apt-cache depends linux-image-amd64 2>/dev/null |
			awk '$1 == "Depends:" && $2 ~ /^linux-image-[0-9]/ { print $2; exit }')"
	fi
	[ -n "$package" ] || return 1
	version="$(apt-cache show --no-all-versions "$package" 2>/dev/null |
		awk '$1 == "Version:" { print $2; exit }')"
	[ -n "$version" ] || return 1
	printf '%s %s\n' "$package" "$version"
}

# kernel_newest_cached: print the directory of the newest complete cached kernel.
kernel_newest_cached() {
	local dir
	# shellcheck disable=SC2012 # names are package_version, no odd characters
	dir="$(ls -1dt "$KERNEL_CACHE"/*/ 2>/dev/null | while read -r d; do
		if [ -e "$d/.complete" ]; then
			printf '%s\n' "${d%/}"
			break
		fi
	done)"
	[ -n "$dir" ] || return 1
	printf '%s\n' "$dir"
}

# kernel_fetch: make sure a kernel is unpacked and set
#   KERNEL_ROOT     the unpacked package (boot/, lib/modules/)
#   KERNEL_RELEASE  uname -r of the guest, e.g. 6.1.0-57-amd64
#   KERNEL_PACKAGE  package name, KERNEL_PACKAGE_VERSION its Debian version
#   KERNEL_IMAGE    the vmlinuz to boot
kernel_fetch() {
	local resolved package version dir tmp deb lock
	KERNEL_CACHE="$CACHE_DIR/kernels"
	mkdir -p "$KERNEL_CACHE"

	if resolved="$(kernel_resolve_package)"; then
		package="${resolved% *}"
		version="${resolved#* }"
		dir="$KERNEL_CACHE/${package}_${version}"
	elif dir="$(kernel_newest_cached)"; then
		# Offline or no apt lists: the cache is good enough.
		progress "apt cannot resolve linux-image-amd64; using cached $(basename "$dir")"
	else
		die "cannot resolve linux-image-amd64 with apt-cache and nothing is cached in $KERNEL_CACHE (run apt-get update?)"
	fi

	# Several worktrees share the cache: one fetch at a time.
	exec {lock}>"$KERNEL_CACHE/.lock"
	flock "$lock"
	if [ ! -e "$dir/.complete" ]; then
		progress "fetching $package $version into $dir"
		tmp="$dir.partial"
		rm -rf "$tmp" "$dir"
		mkdir -p "$tmp/deb"
		# apt-get download writes into the current directory.
		if ! (cd "$tmp/deb" && apt-get download -q "$package=$version") >"$tmp/download.log" 2>&1; then
			cat "$tmp/download.log" >&2
			die "apt-get download $package=$version failed"
		fi
		deb="$(ls "$tmp"/deb/*.deb)"
		dpkg-deb -x "$deb" "$tmp/root"
		local release
		release="$(ls "$tmp/root/lib/modules")"
		# The package ships no modules.dep; modprobe --show-depends needs one.
		depmod -b "$tmp/root" "$release"
		rm -rf "$tmp/deb"
		printf '%s %s %s\n' "$package" "$version" "$release" >"$tmp/kernel.id"
		touch "$tmp/.complete"
		mv "$tmp" "$dir"
	fi
	exec {lock}>&-

	KERNEL_ROOT="$dir/root"
	read -r KERNEL_PACKAGE KERNEL_PACKAGE_VERSION KERNEL_RELEASE <"$dir/kernel.id"
	KERNEL_IMAGE="$KERNEL_ROOT/boot/vmlinuz-$KERNEL_RELEASE"
	[ -r "$KERNEL_IMAGE" ] || die "no kernel image at $KERNEL_IMAGE; remove $dir and run again"
	export KERNEL_ROOT KERNEL_RELEASE KERNEL_PACKAGE KERNEL_PACKAGE_VERSION KERNEL_IMAGE
}
