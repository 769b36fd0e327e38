# shellcheck shell=bash
# Build the C helper programs (helpers/*.c) with the host's gcc. They run in
# the guest unchanged, through the chroot of the host's root, so they link
# against the host's libraries like any Debian program.

helpers_build() {
	local src name out flags
	HELPERS_DIR="$BUILD_DIR/bin"
	mkdir -p "$HELPERS_DIR"
	# libevdev for the uinput writers; --as-needed keeps it off the others.
	flags="$(pkg-config --cflags --libs libevdev)" ||
		die "libevdev not found by pkg-config (apt-get install libevdev-dev pkg-config)"
	for src in "$HARNESS_DIR"/helpers/*.c; do
		name="$(basename "$src" .c)"
		out="$HELPERS_DIR/$name"
		if helpers_up_to_date "$out" "$src" "$HARNESS_DIR"/helpers/*.h; then
			continue
		fi
		# shellcheck disable=SC2086 # flags are words from pkg-config
		gcc -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wl,--as-needed \
			-o "$out" "$src" $flags -lm ||
			die "building helper $name failed"
	done
	export HELPERS_DIR
}

# helpers_up_to_date OUT SOURCE...: OUT is newer than every SOURCE (a helper
# includes any of the headers, so a change to one rebuilds them all).
helpers_up_to_date() {
	local out="$1" src
	shift
	for src in "$@"; do
		[ "$out" -nt "$src" ] || return 1
	done
}
