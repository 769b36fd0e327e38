"""The machine as the applet's tests need it, inside the Debian 13 root: two
people polkit tells apart, a private system bus with the project's policy,
the real polkitd, and tiltscrolld in --dry-run over a umockdev sensor.

Everything the machine would keep is bind-mounted over in the mount
namespace that tools/trixie-root gives each command (the rule, the
actions, /etc/passwd and /etc/group), so nothing of the shared root
changes."""

import os
import shutil
import signal
import socket
import subprocess
import time

from gi.repository import Gio, GLib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

BUS_NAME = "io.github.tiltscroll.TiltScroll1"
OBJECT_PATH = "/io/github/tiltscroll/TiltScroll1"
INTERFACE = BUS_NAME
PROPERTIES = "org.freedesktop.DBus.Properties"
SYSTEM_BUS_POLICY = os.path.join(ROOT, "Tests", "dbus", "system-bus-policy.conf")
POLKIT_BUS_POLICY = "/usr/share/dbus-1/system.d/org.freedesktop.PolicyKit1.conf"
FIXTURE = os.path.join(ROOT, "Tests", "umockdev", "fixtures", "kxcjk-1013.umockdev")
POLKITD = "/usr/lib/polkit-1/polkitd"

# Two people: polkit's rule grants the first every tiltscroll action and
# says nothing of the second, who has no session (no logind), so that
# allow_active never applies to them.
GRANTED = ("tiltgranted", 4711)
DENIED = ("tiltdenied", 4712)


class Failure(Exception):
    pass


def say(message):
    print(message, flush=True)


def wait_for(what, probe, timeout=15.0, interval=0.05):
    """Calls probe() until it returns something true; returns (that, seconds)."""
    start = time.monotonic()
    last = None
    while True:
        try:
            last = probe()
        except (GLib.Error, Failure, OSError) as error:
            last = error
        else:
            if last:
                return last, time.monotonic() - start
        if time.monotonic() - start > timeout:
            raise Failure(f"{what}: not within {timeout:.0f} s (last seen: {last!r})")
        time.sleep(interval)


def tail(path, lines=30):
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-lines:])
    except OSError:
        return ""


class Processes:
    """Everything the harness starts, stopped in reverse order at the end."""

    def __init__(self):
        self.running = []

    def start(self, name, argv, env, log_path, user=None):
        if user is not None:
            argv = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", "--"] + argv
        with open(log_path, "wb") as log:
            process = subprocess.Popen(
                argv, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        process.name = name
        process.log_path = log_path
        self.running.append(process)
        return process

    def stop(self, process, timeout=10, sig=signal.SIGTERM):
        """sig (SIGTERM), then SIGKILL after timeout; returns the exit status."""
        if process.poll() is None:
            process.send_signal(sig)
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if process in self.running:
            self.running.remove(process)
        return process.returncode

    def stop_all(self):
        """Everything still running, with whatever it started (each runs in
        a session and process group of its own)."""
        for process in reversed(list(self.running)):
            try:
                os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            self.stop(process, timeout=5)


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
    """Until the socket at PATH accepts a connection (it exists from bind(2)
    on, a moment before listen(2))."""

    def ready():
        if process.poll() is not None:
            raise Failure(f"{what} exited with status {process.returncode}: {tail(process.log_path)}")
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


class Bus:
    """A dbus-daemon of its own, as `user` (None: root), and a connection to it."""

    def __init__(self, processes, kind, policy, directory, user=None):
        socket_path = os.path.join(directory, f"{kind}_bus_socket")
        config = os.path.join(directory, f"{kind}-bus.conf")
        with open(config, "w") as f:
            f.write(BUS_CONFIG.format(kind=kind, socket=socket_path, policy=policy))
        self.process = processes.start(
            f"{kind} bus",
            ["dbus-daemon", "--nofork", "--nopidfile", f"--config-file={config}"],
            {"PATH": os.environ["PATH"]},
            os.path.join(directory, f"{kind}-bus.log"),
            user=user,
        )
        wait_for_socket(socket_path, self.process, f"the private {kind} bus")
        self.address = f"unix:path={socket_path}"
        self.connection = connect(self.address)


def bind_mount(source, target):
    subprocess.run(["mount", "--bind", source, target], check=True)


def make_people_and_polkit(directory):
    """The rule, our actions and the two people, over the root's own files
    in this mount namespace only."""
    rules = os.path.join(directory, "polkit-rules")
    actions = os.path.join(directory, "polkit-actions")
    os.makedirs(rules)
    shutil.copytree("/usr/share/polkit-1/actions", actions)
    shutil.copy(os.path.join(ROOT, "polkit", "io.github.tiltscroll.policy"), actions)
    with open(os.path.join(rules, "50-tiltscroll-test.rules"), "w") as f:
        f.write(
            "polkit.addRule(function(action, subject) {\n"
            f'    if (action.id.indexOf("io.github.tiltscroll.") == 0 && subject.user == "{GRANTED[0]}")\n'
            "        return polkit.Result.YES;\n"
            "});\n"
        )
    shutil.chown(rules, "polkitd")
    passwd = os.path.join(directory, "passwd")
    group = os.path.join(directory, "group")
    shutil.copy("/etc/passwd", passwd)
    shutil.copy("/etc/group", group)
    with open(passwd, "a") as f:
        for name, uid in (GRANTED, DENIED):
            f.write(f"{name}:x:{uid}:{uid}::/nonexistent:/usr/sbin/nologin\n")
    with open(group, "a") as f:
        for name, uid in (GRANTED, DENIED):
            f.write(f"{name}:x:{uid}:\n")
    os.makedirs("/etc/polkit-1/rules.d", exist_ok=True)
    bind_mount(rules, "/etc/polkit-1/rules.d")
    bind_mount(actions, "/usr/share/polkit-1/actions")
    bind_mount(passwd, "/etc/passwd")
    bind_mount(group, "/etc/group")


class Polkit:
    """The real polkitd on the private system bus."""

    def __init__(self, processes, directory, bus):
        self.processes, self.directory, self.bus = processes, directory, bus
        self.process = None
        self.starts = 0

    def start(self):
        self.starts += 1
        env = {"PATH": os.environ["PATH"], "DBUS_SYSTEM_BUS_ADDRESS": self.bus.address}
        self.process = self.processes.start(
            "polkitd", [POLKITD, "--no-debug"], env, os.path.join(self.directory, f"polkitd-{self.starts}.log")
        )
        _, seconds = wait_for(
            "polkitd on the private system bus", lambda: self.alive() and has_owner(self.bus.connection, "org.freedesktop.PolicyKit1")
        )
        return seconds

    def alive(self):
        if self.process.poll() is not None:
            raise Failure(f"polkitd exited with status {self.process.returncode}: {tail(self.process.log_path)}")
        return True

    def stop(self):
        self.processes.stop(self.process)
        wait_for("polkitd to leave the bus", lambda: not has_owner(self.bus.connection, "org.freedesktop.PolicyKit1"))


class Daemon:
    """tiltscrolld --dry-run over the kxcjk-1013 fixture, on the private system bus."""

    def __init__(self, processes, directory, bus, binary):
        self.processes, self.directory, self.bus, self.binary = processes, directory, bus, binary
        self.state = os.path.join(directory, "state")
        self.runtime = os.path.join(directory, "daemon-run")
        os.makedirs(self.state, exist_ok=True)
        os.makedirs(self.runtime, exist_ok=True)
        self.config = os.path.join(directory, "tiltscroll.conf")
        self.configure(when="always")
        self.process = None
        self.starts = 0

    def configure(self, when):
        """[Activation] When= for the next start."""
        with open(self.config, "w") as f:
            f.write(f"[Device]\nSampleRate=50\n[Activation]\nWhen={when}\n")

    @property
    def env(self):
        return {
            "PATH": os.environ["PATH"],
            "DBUS_SYSTEM_BUS_ADDRESS": self.bus.address,
            "STATE_DIRECTORY": self.state,
            "RUNTIME_DIRECTORY": self.runtime,
        }

    def start(self):
        """Starts it and waits for its name on the bus; returns the seconds that took."""
        self.starts += 1
        log = os.path.join(self.directory, f"daemon-{self.starts}.log")
        self.process = self.processes.start(
            "tiltscrolld",
            ["umockdev-run", "-d", FIXTURE, "--", self.binary, "--dry-run", "--config", self.config],
            self.env,
            log,
        )

        def owned():
            if self.process.poll() is not None:
                raise Failure(f"tiltscrolld exited with status {self.process.returncode}; {log}:\n{tail(log)}")
            return has_owner(self.bus.connection, BUS_NAME)

        _, seconds = wait_for(f"{BUS_NAME} on the private system bus", owned)
        return seconds

    def stop(self):
        """SIGTERM through umockdev-run, which passes the daemon's exit status on."""
        status = self.processes.stop(self.process)
        self.process = None
        return status

    def get(self, name):
        return call(
            self.bus.connection, BUS_NAME, OBJECT_PATH, PROPERTIES, "Get", GLib.Variant("(ss)", (INTERFACE, name)), "(v)"
        )[0]

    def busctl(self, *arguments, user=None):
        """busctl on the private system bus, as a person types it (tiltscrollctl
        is being written in parallel)."""
        argv = ["busctl", "--system", *arguments]
        if user is not None:
            argv = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", "--"] + argv
        return subprocess.run(argv, env=self.env, capture_output=True, text=True, timeout=30)

    def set_property(self, name, signature, value):
        result = self.busctl("set-property", BUS_NAME, OBJECT_PATH, INTERFACE, name, signature, value)
        if result.returncode != 0:
            raise Failure(f"busctl set-property {name} {signature} {value}: {result.stderr.strip()}")
