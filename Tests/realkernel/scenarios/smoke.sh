#!/bin/bash
# timeout: 120
set -eu
. "$HARNESS_DIR/lib.sh"
uname -a
ls /lib/modules
modprobe uinput
ls -la /dev/uinput
"$HELPERS_DIR/monotime"
touch /var/lib/tiltscroll/x /etc/foo
echo hello > "$RUN_DIR/hello"
