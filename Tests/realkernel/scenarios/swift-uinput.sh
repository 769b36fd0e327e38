#!/bin/bash
# swift-uinput: the Swift tests that need the kernel's uinput and evdev run
# where those exist. The suites ScrollDeviceOnTheKernel (the scroll device:
# its capabilities, its events, its removal), TabletSwitchDeviceOnTheKernel
# (the tablet-mode switch tiltscroll publishes, read back as the daemon
# reads a firmware's), TabletSwitchOnTheKernel and TouchOnTheKernel
# (devices made through uinput, found and read as the daemon finds and
# reads them) skip on a machine without a writable
# /dev/uinput, as `swift test` runs in `make check`; here they must run, and
# pass, every one.
#   - The test bundle of the debug build (make check builds it first) runs
#     with only those suites (--filter OnTheKernel).
#   - None is skipped, none fails, and the run counts at least the tests the
#     bundle lists for them (--list-tests): none was left out.
# timeout: 240
set -eu
# shellcheck source=lib.sh
. "$HARNESS_DIR/lib.sh"

BUNDLE="$PROJECT_DIR/.build/debug/tiltscrollPackageTests.xctest"
[ -x "$BUNDLE" ] || fail "no test bundle at $BUNDLE (swift build --build-tests builds it; make check does)"

step "the bundle's tests that need uinput"
modprobe uinput
modprobe evdev # the event nodes the devices are found and read by
[ -w /dev/uinput ] || fail "/dev/uinput is not writable after modprobe uinput"
listed="$("$BUNDLE" --testing-library swift-testing --list-tests 2>&1 | grep -c 'OnTheKernel/')" ||
	fail "the bundle lists no OnTheKernel tests"
log "$listed tests listed in the OnTheKernel suites"

step "run them"
out="$RUN_DIR/swift-tests.log"
diag_file "$out"
status=0
"$BUNDLE" --testing-library swift-testing --filter OnTheKernel >"$out" 2>&1 || status=$?
summary="$(grep 'Test run with' "$out" | sed 's/\x1b\[[0-9;]*m//g' | tail -n 1)"
log "${summary:-no summary line}"
[ "$status" -eq 0 ] || fail "the tests failed (exit status $status)"
skipped="$(grep -c ' skipped' "$out")" || true
[ "$skipped" -eq 0 ] || fail "$skipped tests skipped: $(grep ' skipped' "$out" | head -n 3 | tr '\n' ' ')"
ran="$(sed -n 's/.*Test run with \([0-9]*\) tests.* passed.*/\1/p' <<<"$summary")"
[ -n "$ran" ] || fail "no passing summary line"
[ "$ran" -ge "$listed" ] || fail "$ran tests ran, $listed are listed"
pass "$ran tests of the OnTheKernel suites ran on the real kernel's uinput and passed"
