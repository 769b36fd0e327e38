"""The processes the harness starts, and the private D-Bus buses it runs them on."""

import os
import signal
import socket
import subprocess

from gi.repository import Gio, GLib

from common import SYSTEM_BUS_POLICY, Failure, wait_for


class Processes:
    """Everything the harness starts, stopped in reverse order at the end."""

    def __init__(self):
        self.running = []

    def start(self, name, argv, env, log_path, user=None):
        if user is not None:
            argv = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", "--"] + argv
        log = open(log_path, "wb")
        process = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        process.name = name
        self.running.append(process)
        return process

    def stop(self, process, timeout=10):
        """SIGTERM, then SIGKILL after timeout; returns the exit status."""
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if process in self.running:
            self.running.remove(process)
        return process.returncode

    def stop_all(self):
        for process in reversed(list(self.running)):
            self.stop(process)


def connect(address):
    flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
    return Gio.DBusConnection.new_for_address_sync(address, flags, None, None)


def call(connection, destination, path, interface, method, args, reply, timeout_ms=10000):
    return connection.call_sync(
        destination, path, interface, method, args, GLib.VariantType(reply), Gio.DBusCallFlags.NONE, timeout_ms, None
    ).unpack()


def has_owner(connection, name):
    return call(
        connection,
        "org.freedesktop.DBus",
        "/org/freedesktop/DBus",
        "org.freedesktop.DBus",
        "NameHasOwner",
        GLib.Variant("(s)", (name,)),
        "(b)",
    )[0]


def wait_for_socket(path, process, what):
    """Until the socket at PATH accepts a connection: it exists from bind(2)
    on, a moment before listen(2), and a connection in between is refused."""

    def ready():
        if process.poll() is not None:
            raise Failure(f"{what} exited with status {process.returncode}")
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            try:
                probe.connect(path)
            except OSError:
                return False
        return True

    wait_for(what, ready)


BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>{kind}</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
{policy}
</busconfig>
"""

# The private system bus: what every private system bus of the tests grants
# (Tests/dbus/system-bus-policy.conf: the default policy of Debian's
# system.conf and the project's policy file, as the repository has it).
SYSTEM_POLICY = f"  <include>{SYSTEM_BUS_POLICY}</include>"

# The shell's own session bus: nothing activatable, anyone may connect (the
# harness, as root, talks to a shell run as another user).
SESSION_POLICY = """  <policy context="default">
    <allow user="*"/>
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>"""


class Bus:
    """A dbus-daemon of its own, as `user` (None: root), and a connection to it."""

    def __init__(self, processes, kind, policy, socket, config, user=None):
        with open(config, "w") as f:
            f.write(BUS_CONFIG.format(kind=kind, socket=socket, policy=policy))
        self.process = processes.start(
            f"{kind} bus",
            ["dbus-daemon", "--nofork", "--nopidfile", f"--config-file={config}"],
            {"PATH": os.environ["PATH"]},
            config.replace(".conf", ".log"),
            user=user,
        )
        wait_for_socket(socket, self.process, f"the private {kind} bus")
        self.address = f"unix:path={socket}"
        self.connection = connect(self.address)


def resident_mib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) // 1024
    except OSError:
        pass
    return None


def tail(path, lines=30):
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-lines:])
    except OSError:
        return ""
