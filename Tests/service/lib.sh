# Shared helpers for the service tests (sourced, not run).
# Each test prints "ok - NAME" or "not ok - NAME: why"; the script exits 1
# if any failed, 77 if it cannot run here (a missing tool), 0 otherwise.

set -u
REPO=$(cd "$(dirname "$0")/../.." && pwd)
FAILED=0
PASSED=0
export SYSTEMD_PAGER=cat SYSTEMD_COLORS=0 LC_ALL=C

ok() { PASSED=$((PASSED + 1)); echo "ok - $1"; }
not_ok() { FAILED=$((FAILED + 1)); echo "not ok - $1"; }
# check NAME COMMAND...: ok if the command succeeds.
check() { local name=$1; shift; if "$@"; then ok "$name"; else not_ok "$name"; fi; }
skip_all() { echo "skipped: $1"; exit 77; }
require() { command -v "$1" >/dev/null 2>&1 || skip_all "$1 is not installed"; }
finish() { echo "$PASSED passed, $FAILED failed"; [ "$FAILED" -eq 0 ]; }

# A scratch directory removed on exit.
SCRATCH=$(mktemp -d /tmp/tiltscroll-service-test.XXXXXX)
trap 'rm -rf "$SCRATCH"' EXIT

# The daemon binary to use: $TILTSCROLLD_BINARY, else a built one, else build it.
find_binary() {
    if [ -n "${TILTSCROLLD_BINARY:-}" ]; then echo "$TILTSCROLLD_BINARY"; return; fi
    for candidate in "$REPO/.build/release/tiltscrolld" "$REPO/.build/debug/tiltscrolld"; do
        if [ -x "$candidate" ]; then echo "$candidate"; return; fi
    done
    (cd "$REPO" && swift build --product tiltscrolld >&2) && echo "$REPO/.build/debug/tiltscrolld"
}

# The client, tiltscrollctl: $TILTSCROLLCTL_BINARY, else the one built beside
# the daemon find_binary gives (swift builds both products together), else
# build it.
find_client() {
    if [ -n "${TILTSCROLLCTL_BINARY:-}" ]; then echo "$TILTSCROLLCTL_BINARY"; return; fi
    local daemon
    daemon=$(find_binary) || return
    if [ -x "$(dirname "$daemon")/tiltscrollctl" ]; then echo "$(dirname "$daemon")/tiltscrollctl"; return; fi
    (cd "$REPO" && swift build --product tiltscrollctl >&2) && echo "$REPO/.build/debug/tiltscrollctl"
}

# A MANPATH tree holding our pages, as installed.
man_tree() {
    mkdir -p "$SCRATCH/man/man8" "$SCRATCH/man/man5" "$SCRATCH/man/man1"
    cp "$REPO/man/tiltscrolld.8" "$SCRATCH/man/man8/"
    cp "$REPO/man/tiltscroll.conf.5" "$SCRATCH/man/man5/"
    if [ -e "$REPO/man/tiltscrollctl.1" ]; then cp "$REPO/man/tiltscrollctl.1" "$SCRATCH/man/man1/"; fi
    echo "$SCRATCH/man"
}
