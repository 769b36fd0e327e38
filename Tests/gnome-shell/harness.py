#!/usr/bin/python3
"""The Tilt Scroll extension in a real, headless GNOME Shell 43, driving the
real tiltscrolld over a private system bus. Run it through ./run, which
builds the daemon and checks that the programs exist; README.md in this
directory says what each check proves and how the pieces are set up.
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback

import gi

gi.require_version("GdkPixbuf", "2.0")
from gi.repository import GdkPixbuf, Gio, GLib  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

UUID = "tiltscroll@tiltscroll.github.io"
HELPER_UUID = "unsafe-mode-for-tests@tiltscroll.github.io"
BUS_NAME = "io.github.tiltscroll.TiltScroll1"
OBJECT_PATH = "/io/github/tiltscroll/TiltScroll1"
INTERFACE = BUS_NAME
PROPERTIES = "org.freedesktop.DBus.Properties"
POLICY = os.path.join(ROOT, "dbus", BUS_NAME + ".conf")
FIXTURE = os.path.join(ROOT, "Tests", "umockdev", "fixtures", "kxcjk-1013.umockdev")
DAEMON = os.environ["TILTSCROLLD"]
MONITOR = "1280x800"
UNPRIVILEGED_USER = 65534  # nobody: no polkitd on the private bus refuses it

# GNOME Shell 43's ExtensionState and ExtensionType (misc/extensionUtils.js).
ENABLED, DISABLED = 1, 2
SYSTEM = 1

# The menu's subtitle for each State name (gnome-shell/toggle.js).
SUBTITLES = {
    "off": "Off",
    "waiting-for-sensor": "No sensor",
    "active": "Active",
    "resting": "Resting",
    "touched": "Touched",
    "following": "Following a slow drift",
}


def expected_subtitle(name, enabled):
    """gnome-shell/toggle.js subtitleFor: the header's subtitle for State."""
    if name == "off" and enabled:
        return "Paused"
    return SUBTITLES.get(name, SUBTITLES["active"])


class Failure(Exception):
    pass


def say(message):
    print(message, flush=True)


def wait_for(what, probe, timeout=10.0, interval=0.05):
    """Calls probe() until it returns something true; returns (that, seconds)."""
    start = time.monotonic()
    last = None
    while True:
        try:
            last = probe()
        except (GLib.Error, Failure) as error:
            last = error
        else:
            if last:
                return last, time.monotonic() - start
        if time.monotonic() - start > timeout:
            raise Failure(f"{what}: not within {timeout:.0f} s (last seen: {last!r})")
        time.sleep(interval)


def sensitivity_for_position(position):
    """gnome-shell/sensitivity.js factorForPosition, for the expected value."""
    position = min(max(position, 0.0), 1.0)
    factor = 0.25 * 16**position
    if 1 / 1.04 < factor < 1.04:
        return 1.0
    return min(max(round(factor * 100) / 100, 0.25), 4.0)


def position_for_sensitivity(factor):
    import math

    return min(max(math.log(factor / 0.25) / math.log(16), 0.0), 1.0)


# ---------------------------------------------------------------------------
# Processes and buses
# ---------------------------------------------------------------------------


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
    def ready():
        if process.poll() is not None:
            raise Failure(f"{what} exited with status {process.returncode}")
        return os.path.exists(path)

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

# The private system bus: the default policy of Debian's system.conf (deny
# owning and calling, allow replies and signals) and the project's policy
# file, exactly as it is in the repository, so that the daemon and its
# clients get the access a real system grants and no more. No activation.
SYSTEM_POLICY = f"""  <policy context="default">
    <allow user="*"/>
    <deny own="*"/>
    <deny send_type="method_call"/>
    <allow send_type="signal"/>
    <allow send_requested_reply="true" send_type="method_return"/>
    <allow send_requested_reply="true" send_type="error"/>
    <allow receive_type="method_call"/>
    <allow receive_type="method_return"/>
    <allow receive_type="error"/>
    <allow receive_type="signal"/>
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Introspectable"/>
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Properties"/>
    <deny send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"
          send_member="UpdateActivationEnvironment"/>
    <deny send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Debug.Stats"/>
  </policy>
  <include>{POLICY}</include>"""

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


class Daemon:
    """tiltscrolld --dry-run over the kxcjk-1013 fixture, on the private system bus."""

    def __init__(self, processes, directory, bus):
        self.processes = processes
        self.directory = directory
        self.bus = bus
        self.state = os.path.join(directory, "state")
        self.runtime = os.path.join(directory, "daemon-run")
        os.makedirs(self.state, exist_ok=True)
        os.makedirs(self.runtime, exist_ok=True)
        self.config = os.path.join(directory, "tiltscroll.conf")
        with open(self.config, "w") as f:
            f.write("[Device]\nSampleRate=50\n[Activation]\nWhen=always\n")
        self.process = None
        self.starts = 0

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
            ["umockdev-run", "-d", FIXTURE, "--", DAEMON, "--dry-run", "--config", self.config],
            self.env,
            log,
        )

        def owned():
            if self.process.poll() is not None:
                raise Failure(f"tiltscrolld exited with status {self.process.returncode}; {log}:\n{tail(log)}")
            return has_owner(self.bus.connection, BUS_NAME)

        try:
            _, seconds = wait_for(f"{BUS_NAME} on the private system bus", owned)
        except Failure as failure:
            raise Failure(f"{failure}; {log}:\n{tail(log)}") from None
        return seconds

    def stop(self):
        """SIGTERM through umockdev-run, which passes the daemon's exit status on."""
        # umockdev-run forwards SIGTERM to its child and exits with its status.
        status = self.processes.stop(self.process)
        self.process = None
        return status

    def client(self, *arguments, user=None):
        """tiltscrolld used as a bus client, as a person types it in a terminal."""
        argv = [DAEMON, *arguments]
        if user is not None:
            argv = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", "--"] + argv
        return subprocess.run(argv, env=self.env, capture_output=True, text=True, timeout=30)

    def get(self, name):
        return call(
            self.bus.connection,
            BUS_NAME,
            OBJECT_PATH,
            PROPERTIES,
            "Get",
            GLib.Variant("(ss)", (INTERFACE, name)),
            "(v)",
        )[0]

    def set(self, name, variant):
        call(
            self.bus.connection,
            BUS_NAME,
            OBJECT_PATH,
            PROPERTIES,
            "Set",
            GLib.Variant("(ssv)", (INTERFACE, name, variant)),
            "()",
        )


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


# ---------------------------------------------------------------------------
# The shell
# ---------------------------------------------------------------------------

# What GNOME Shell 43 logs at every start on these private buses, with or
# without extensions: its calendar server is a session service this bus has
# no .service file for. Matched exactly, and only with a stack entirely in
# GJS's own code.
KNOWN_SHELL_ERRORS = {
    "JS ERROR: Gio.DBusError: GDBus.Error:org.freedesktop.DBus.Error.ServiceUnknown: "
    "The name org.gnome.Shell.CalendarServer was not provided by any .service files",
}
GJS_OWN_CODE = "resource:///org/gnome/gjs/"
STACK_FRAME = re.compile(r"^\S*@\S+:\d+:\d+$")

# Run inside the shell by org.gnome.Shell.Eval before each question: finds
# things by what a person sees (the toggle by its label) in the actor tree.
PRELUDE = """
const Main = imports.ui.main;
const {Clutter, GLib, St} = imports.gi;
const QuickSettings = imports.ui.quickSettings;
const qs = Main.panel.statusArea.quickSettings;
const descendants = function* (actor) {
    for (const child of actor) {
        yield child;
        yield* descendants(child);
    }
};
const findToggle = (top = qs.menu.box) => {
    for (const actor of descendants(top)) {
        if (actor instanceof QuickSettings.QuickToggle && actor.label === 'Tilt Scroll')
            return actor;
    }
    return null;
};
const boxOf = actor => {
    const [x, y] = actor.get_transformed_position();
    const [w, h] = actor.get_transformed_size();
    return {x, y, w, h};
};
const colorOf = color => [color.red, color.green, color.blue, color.alpha];
const pointer = () => {
    if (!globalThis._tiltscrollTestPointer) {
        const seat = Clutter.get_default_backend().get_default_seat();
        globalThis._tiltscrollTestPointer =
            seat.create_virtual_device(Clutter.InputDeviceType.POINTER_DEVICE);
    }
    return globalThis._tiltscrollTestPointer;
};
"""

TOGGLE_STATE = """
const t = findToggle();
if (!t)
    return {found: false};
const slider = t.menu.box.get_children().flatMap(c => [...descendants(c)])
    .find(a => a.accessible_name === 'Sensitivity' && 'value' in a) ?? null;
const items = t.menu._getMenuItems();
const calibrate = items.find(i => i.label?.text === 'Re-centre') ?? null;
return {
    found: true,
    visible: t.visible,
    mapped: t.mapped,
    checked: t.checked,
    label: t.label,
    box: boxOf(t),
    labelBox: boxOf(t._label),
    arrowBox: boxOf(t._menuButton),
    background: colorOf(t.get_theme_node().get_background_color()),
    menuBox: boxOf(t.menu.box),
    menuTitleBox: boxOf(t.menu._headerTitle),
    menuBackground: colorOf([t.menu._header, t.menu.box, t.menu.actor]
        .map(a => a.get_theme_node().get_background_color())
        .find(c => c.alpha === 255) ?? new Clutter.Color()),
    menuOpen: t.menu.isOpen,
    menuSettled: t.menu.isOpen && t.menu.actor.mapped && t.menu.box.opacity === 255 &&
        !t.menu.actor.natural_height_set,
    title: t.menu._headerTitle.text,
    subtitle: t.menu._headerSubtitle.visible ? t.menu._headerSubtitle.text : '',
    reason: items[0].visible ? items[0].label.text : '',
    calibrateSensitive: calibrate ? calibrate.sensitive : null,
    calibrateBox: calibrate ? boxOf(calibrate) : null,
    sliderValue: slider ? slider.value : null,
    sliderBox: slider ? boxOf(slider) : null,
    gridIndex: qs.menu._grid.get_children().indexOf(t),
    autoRotateIndex: qs.menu._grid.get_children().indexOf(qs._autoRotate.quickSettingsItems[0]),
    quickSettingsOpen: qs.menu.isOpen,
    overviewVisible: Main.overview.visible,
    quickSettingsBox: boxOf(qs.menu._boxPointer),
};
"""


class Shell:
    """A headless GNOME Shell with its own session bus, as `user` (None: root)."""

    def __init__(self, processes, directory, system_bus, data_dirs, user=None):
        self.processes = processes
        self.directory = directory
        self.user = user
        os.makedirs(directory, mode=0o755)
        dirs = {name: os.path.join(directory, name) for name in ("home", "runtime", "config", "data", "cache")}
        for path in dirs.values():
            os.makedirs(path)
        os.chmod(dirs["runtime"], 0o700)
        # The test-only helper is a user extension of this throwaway home.
        shutil.copytree(
            os.path.join(HERE, HELPER_UUID), os.path.join(dirs["data"], "gnome-shell", "extensions", HELPER_UUID)
        )
        settings = os.path.join(dirs["config"], "glib-2.0", "settings")
        os.makedirs(settings)
        with open(os.path.join(settings, "keyfile"), "w") as f:
            f.write(
                "[org/gnome/shell]\n"
                f"enabled-extensions=['{UUID}', '{HELPER_UUID}']\n"
                "welcome-dialog-last-shown-version='999'\n"
                "[org/gnome/desktop/interface]\n"
                "enable-animations=false\n"
            )
        if user is not None:
            for base, subdirs, files in os.walk(directory):
                for name in [base] + [os.path.join(base, n) for n in subdirs + files]:
                    os.chown(name, user, user)

        self.session_bus = Bus(
            processes,
            "session",
            SESSION_POLICY,
            os.path.join(dirs["runtime"], "bus"),
            os.path.join(directory, "session.conf"),
            user=user,
        )
        self.session = self.session_bus.connection

        self.env = {
            "PATH": os.environ["PATH"],
            "HOME": dirs["home"],
            "XDG_RUNTIME_DIR": dirs["runtime"],
            "XDG_CONFIG_HOME": dirs["config"],
            "XDG_DATA_HOME": dirs["data"],
            "XDG_CACHE_HOME": dirs["cache"],
            "XDG_DATA_DIRS": data_dirs,
            "XDG_SESSION_TYPE": "wayland",
            "GSETTINGS_BACKEND": "keyfile",
            "LIBGL_ALWAYS_SOFTWARE": "1",
            "NO_AT_BRIDGE": "1",
            "LANG": "C.UTF-8",
            "DBUS_SESSION_BUS_ADDRESS": self.session_bus.address,
            "DBUS_SYSTEM_BUS_ADDRESS": system_bus.address,
        }
        self.runtime = dirs["runtime"]
        self.log_path = os.path.join(directory, "gnome-shell.log")

    def start(self):
        """Starts the shell and waits until it has finished starting up; returns the seconds."""
        self.process = self.processes.start(
            "gnome-shell",
            ["gnome-shell", "--headless", "--wayland", "--no-x11", "--virtual-monitor", MONITOR],
            self.env,
            self.log_path,
            user=self.user,
        )

        def started():
            if self.process.poll() is not None:
                raise Failure(f"gnome-shell exited with status {self.process.returncode}:\n{tail(self.log_path)}")
            ok, value = call(
                self.session,
                "org.gnome.Shell",
                "/org/gnome/Shell",
                "org.gnome.Shell",
                "Eval",
                GLib.Variant("(s)", ("Main.layoutManager._startingUp",)),
                "(bs)",
            )
            return ok and value == "false"

        _, seconds = wait_for("GNOME Shell to start (Eval answering as unsafe mode allows)", started, timeout=60)
        return seconds

    def eval(self, body):
        """Runs body (a function body that returns a value) inside the shell."""
        code = "(() => {" + PRELUDE + body + "\n})()"
        ok, value = call(
            self.session,
            "org.gnome.Shell",
            "/org/gnome/Shell",
            "org.gnome.Shell",
            "Eval",
            GLib.Variant("(s)", (code,)),
            "(bs)",
        )
        if not ok:
            raise Failure(f"Eval failed: {value}")
        return json.loads(value) if value else None

    def toggle(self):
        return self.eval(TOGGLE_STATE)

    def settled(self):
        """Quick Settings open and laid out (a box not yet allocated has NaN, null here)."""
        state = self.toggle()
        return (state["quickSettingsOpen"] and state["mapped"] and not state["overviewVisible"]
                and None not in state["box"].values() and state)

    def click(self, box, where=(0.5, 0.5)):
        """A real click through a Clutter virtual pointer at a point of box."""
        x = box["x"] + box["w"] * where[0]
        y = box["y"] + box["h"] * where[1]
        self.eval(f"pointer().notify_absolute_motion(GLib.get_monotonic_time(), {x}, {y}); return true;")
        self.eval(
            "const p = pointer(); const t = GLib.get_monotonic_time();"
            "p.notify_button(t, Clutter.BUTTON_PRIMARY, Clutter.ButtonState.PRESSED);"
            "p.notify_button(t + 50000, Clutter.BUTTON_PRIMARY, Clutter.ButtonState.RELEASED);"
            "return true;"
        )

    def open_quick_settings(self):
        self.eval(
            "Main.overview.hide();"
            "Main.messageTray.getSources().forEach(s => s.destroy());"
            "qs.menu.open(imports.ui.boxpointer.PopupAnimation.NONE);"
            "return true;"
        )

    def screenshot(self, name):
        path = os.path.join(self.runtime, name)
        ok, used = call(
            self.session,
            "org.gnome.Shell.Screenshot",
            "/org/gnome/Shell/Screenshot",
            "org.gnome.Shell.Screenshot",
            "Screenshot",
            GLib.Variant("(bbs)", (False, False, path)),
            "(bs)",
        )
        if not ok:
            raise Failure(f"the Screenshot API refused to write {path}")
        return GdkPixbuf.Pixbuf.new_from_file(used), used

    def extension(self, uuid=UUID):
        return self.eval(
            f"const e = Main.extensionManager.lookup('{uuid}');"
            "return e ? {state: e.state, type: e.type, path: e.path, error: e.error ?? ''} : null;"
        )

    def log_problems(self):
        """What the shell's log says of the extension, and every error or
        warning of GJS except those a shell says at every start when no
        desktop session is around it (KNOWN_SHELL_ERRORS)."""
        with open(self.log_path, errors="replace") as f:
            lines = f.read().splitlines()
        problems = []
        for i, line in enumerate(lines):
            if UUID in line or "Tilt Scroll" in line:
                problems.append(line)
                continue
            if "Gjs-WARNING" not in line and "Gjs-CRITICAL" not in line and "JS ERROR" not in line:
                continue
            stack = []
            for frame in lines[i + 1 :]:
                if not STACK_FRAME.match(frame):
                    break
                stack.append(frame)
            message = line[line.find("JS ERROR") :] if "JS ERROR" in line else None
            known = message in KNOWN_SHELL_ERRORS and all(f.split("@", 1)[1].startswith(GJS_OWN_CODE) for f in stack)
            if not known:
                problems.append("\n    ".join([line] + stack))
        return problems


# ---------------------------------------------------------------------------
# Pixels
# ---------------------------------------------------------------------------


def dominant_colour(pixbuf, box, inset=6):
    """The most frequent colour (to 4 bits a channel) inside box, and its share."""
    x0, y0 = int(box["x"]) + inset, int(box["y"]) + inset
    x1, y1 = int(box["x"] + box["w"]) - inset, int(box["y"] + box["h"]) - inset
    channels, stride, data = pixbuf.get_n_channels(), pixbuf.get_rowstride(), pixbuf.get_pixels()
    counts, total = {}, 0
    for y in range(y0, y1):
        row = y * stride
        for x in range(x0, x1):
            i = row + x * channels
            key = (data[i] >> 4, data[i + 1] >> 4, data[i + 2] >> 4)
            counts[key] = counts.get(key, 0) + 1
            total += 1
    key, count = max(counts.items(), key=lambda kv: kv[1])
    return tuple(c * 16 + 8 for c in key), count / max(total, 1)


def distinct_pixels(pixbuf, box, colour, tolerance=48):
    """How many pixels in box are far from colour (text, icon strokes)."""
    x0, y0 = int(box["x"]), int(box["y"])
    x1, y1 = int(box["x"] + box["w"]), int(box["y"] + box["h"])
    channels, stride, data = pixbuf.get_n_channels(), pixbuf.get_rowstride(), pixbuf.get_pixels()
    n = 0
    for y in range(y0, y1):
        for x in range(x0, x1):
            i = y * stride + x * channels
            if max(abs(data[i + c] - colour[c]) for c in range(3)) > tolerance:
                n += 1
    return n


def shows(pixbuf, what, box, text_box, background):
    """The screenshot has background where the actor tree says `what` is, and
    something drawn (its name) where its text is."""
    expected = background[:3]
    colour, share = dominant_colour(pixbuf, box)
    close = max(abs(colour[c] - expected[c]) for c in range(3)) <= 16
    drawn = distinct_pixels(pixbuf, text_box, expected)
    if not close or share < 0.5 or drawn < 40:
        raise Failure(
            f"the screenshot does not show {what} at {box}: its most common colour is {colour} "
            f"({share:.0%}), the background should be {expected}; {drawn} pixels drawn on its text at {text_box}"
        )
    return f"{what} at {box} in its background {colour} ({share:.0%}), {drawn} pixels of text"


def shows_toggle(pixbuf, state):
    return shows(pixbuf, "the toggle", state["box"], state["labelBox"], state["background"])


def shows_menu(pixbuf, state):
    return shows(pixbuf, "the toggle's menu", state["menuBox"], state["menuTitleBox"], state["menuBackground"])


# ---------------------------------------------------------------------------
# The checks
# ---------------------------------------------------------------------------


class Report:
    def __init__(self):
        self.rows = []
        self.failed = 0

    def check(self, name, function):
        start = time.monotonic()
        try:
            detail = function()
        except Exception as error:  # a check that crashes fails; the others still run
            self.rows.append((name, "FAILED", time.monotonic() - start))
            self.failed += 1
            detail = str(error) if isinstance(error, Failure) else traceback.format_exc()
            say(f"not ok - {name}: {detail}")
            return False
        seconds = time.monotonic() - start
        self.rows.append((name, "ok", seconds))
        say(f"ok - {name} ({seconds:.2f} s){': ' + detail if detail else ''}")
        return True

    def summary(self):
        say("")
        for name, verdict, seconds in self.rows:
            say(f"{verdict:7} {seconds:6.2f} s  {name}")
        passed = sum(1 for _, verdict, _ in self.rows if verdict == "ok")
        say(f"{passed} passed, {self.failed} failed")


def expect(condition, message):
    if not condition:
        raise Failure(message)


def enabled(daemon):
    return daemon.get("Enabled")


def daemon_snapshot(daemon):
    return {name: daemon.get(name) for name in ("Enabled", "State", "Active", "Sensitivity")}


def menu_agrees(shell, daemon):
    """The toggle's state if it and its menu show what the daemon said just
    before and just after; None while the daemon changes; Failure otherwise."""
    before = daemon_snapshot(daemon)
    state = shell.toggle()
    if daemon_snapshot(daemon) != before:
        return None
    name, reason = before["State"]
    agrees = (
        state["checked"] == before["Enabled"]
        and state["subtitle"] == expected_subtitle(name, before["Enabled"])
        and state["reason"] == reason
        and state["calibrateSensitive"] == before["Active"]
        and abs(state["sliderValue"] - position_for_sensitivity(before["Sensitivity"])) < 1e-6
    )
    if not agrees:
        shown = {k: state[k] for k in ("checked", "subtitle", "reason", "calibrateSensitive", "sliderValue")}
        raise Failure(f"the toggle shows {shown}, the daemon says {before}")
    return state


def privileged_session(report, processes, run, system_bus, daemon, data_dirs, install_dir):
    shell = Shell(processes, os.path.join(run, "shell-root"), system_bus, data_dirs)
    started = shell.start()
    say(f"GNOME Shell (as root) started in {started:.2f} s")

    def loads():
        info = shell.extension()
        expect(info is not None, f"{UUID} is not known to the shell")
        expect(info["state"] == ENABLED, f"state {info['state']}, error {info['error']!r}")
        expect(info["type"] == SYSTEM, f"type {info['type']}: not a system-wide extension")
        expect(info["path"] == os.path.join(install_dir, UUID), f"loaded from {info['path']}")
        expect(shell.extension(HELPER_UUID)["state"] == ENABLED, "the unsafe-mode helper is not enabled")
        return f"enabled from {info['path']}"

    if not report.check("the extension loads system-wide, enabled, without error", loads):
        return shell

    def mirrors_enabled():
        state, seconds = wait_for("the toggle", lambda: (s := shell.toggle())["found"] and s["visible"] and s)
        daemon_enabled = enabled(daemon)
        expect(state["checked"] == daemon_enabled, f"checked {state['checked']}, Enabled {daemon_enabled}")
        expect(state["autoRotateIndex"] >= 0 and state["gridIndex"] == state["autoRotateIndex"] + 1,
               f"grid position {state['gridIndex']}, Auto Rotate at {state['autoRotateIndex']}")
        return f"visible {seconds:.2f} s after start-up, checked = Enabled = {daemon_enabled}, after Auto Rotate"

    report.check("the toggle is in Quick Settings after Auto Rotate, mirroring Enabled", mirrors_enabled)

    shell.open_quick_settings()
    wait_for("Quick Settings open, the toggle mapped and placed, the overview hidden", shell.settled)

    def screenshot_shows_toggle():
        state = shell.toggle()
        pixbuf, path = shell.screenshot("quick-settings.png")
        return f"{path}: {shows_toggle(pixbuf, state)}"

    report.check("a screenshot of the open Quick Settings shows the toggle", screenshot_shows_toggle)

    def tap_flips_enabled():
        before = enabled(daemon)
        state = shell.toggle()
        background_before = state["background"]
        shell.click(state["labelBox"])
        _, seconds = wait_for("Enabled to flip after the tap", lambda: enabled(daemon) != before)
        state, mirrored = wait_for("the toggle to follow", lambda: (s := shell.toggle())["checked"] != before and s)
        expect(state["background"] != background_before, "the toggle's background did not change")
        pixbuf, _ = shell.screenshot("quick-settings-flipped.png")
        shows_toggle(pixbuf, state)
        shell.click(state["labelBox"])
        wait_for("Enabled to flip back after a second tap", lambda: enabled(daemon) == before)
        wait_for("the toggle to follow back", lambda: shell.toggle()["checked"] == before)
        return f"Enabled {before} -> {not before} in {seconds:.2f} s, toggle {mirrored:.2f} s later; and back"

    report.check("tapping the toggle flips Enabled (a real pointer click)", tap_flips_enabled)

    def command_line_reflected():
        result = daemon.client("--disable")
        expect(result.returncode == 0, f"tiltscrolld --disable: exit {result.returncode}: {result.stderr.strip()}")
        _, seconds = wait_for("the toggle to show the daemon disabled",
                              lambda: (s := shell.toggle())["checked"] is False and s)
        wait_for("the menu to agree with the disabled daemon", lambda: menu_agrees(shell, daemon))
        name = daemon.get("State")[0]
        result = daemon.client("--enable")
        expect(result.returncode == 0, f"tiltscrolld --enable: exit {result.returncode}: {result.stderr.strip()}")
        _, back = wait_for("the toggle to show the daemon enabled", lambda: shell.toggle()["checked"] is True)
        return f"off in {seconds:.2f} s (State {name!r}), on again in {back:.2f} s"

    report.check("tiltscrolld --disable and --enable from a shell are reflected", command_line_reflected)

    def menu_shows_state():
        state = shell.toggle()
        shell.click(state["arrowBox"])
        _, seconds = wait_for("the toggle's menu to open", lambda: shell.toggle()["menuSettled"])
        expect(shell.toggle()["title"] == "Tilt Scroll", "the menu's header is not titled Tilt Scroll")
        # The daemon may change state meanwhile (resting after a while of
        # stillness, say): compare with what it says before and after.
        state, _ = wait_for("the menu to agree with the daemon", lambda: menu_agrees(shell, daemon))
        pixbuf, path = shell.screenshot("toggle-menu.png")
        shown = shows_menu(pixbuf, state)
        if os.environ.get("SCREENSHOT"):
            save_readme_picture(pixbuf, state["quickSettingsBox"], os.environ["SCREENSHOT"])
        return (f"open in {seconds:.2f} s: {state['subtitle']!r}, {state['reason']!r}, "
                f"Re-centre {'sensitive' if state['calibrateSensitive'] else 'insensitive'}, slider {state['sliderValue']:.3f}; "
                f"{path}: {shown}")

    report.check("the menu shows State, Re-centre (sensitive when Active) and the sensitivity", menu_shows_state)

    def slider_writes_sensitivity():
        state = shell.toggle()
        expect(state["sliderBox"] is not None, "no slider in the menu")
        shell.click(state["sliderBox"], where=(0.8, 0.5))
        moved, _ = wait_for("the slider to move", lambda: (s := shell.toggle())["sliderValue"] > 0.6 and s)
        expected = sensitivity_for_position(moved["sliderValue"])
        _, seconds = wait_for(f"Sensitivity {expected}", lambda: abs(daemon.get("Sensitivity") - expected) < 1e-9)
        daemon.set("Sensitivity", GLib.Variant("d", 0.5))
        _, back = wait_for("the slider to follow Sensitivity 0.5",
                           lambda: abs(shell.toggle()["sliderValue"] - position_for_sensitivity(0.5)) < 1e-6)
        return f"slider {moved['sliderValue']:.3f} -> Sensitivity {expected} in {seconds:.2f} s; 0.5 from the bus shown in {back:.2f} s"

    report.check("the slider writes Sensitivity and follows it", slider_writes_sensitivity)

    def recentre_calibrates():
        calibration = os.path.join(daemon.state, "calibration")
        before = os.stat(calibration).st_mtime_ns if os.path.exists(calibration) else None
        state = shell.toggle()
        expect(state["calibrateSensitive"], "Re-centre is not sensitive")
        shell.click(state["calibrateBox"])
        _, seconds = wait_for("the calibration file to be written",
                              lambda: os.path.exists(calibration) and os.stat(calibration).st_mtime_ns != before)
        return f"{calibration} written {seconds:.2f} s after the click"

    report.check("Re-centre calls Calibrate (the daemon saves the neutral pose)", recentre_calibrates)

    def stopping_hides():
        status = daemon.stop()
        expect(status == 0, f"tiltscrolld exited with status {status} on SIGTERM")
        _, seconds = wait_for("the toggle to hide", lambda: shell.toggle()["visible"] is False)
        started = daemon.start()
        state, back = wait_for("the toggle to come back", lambda: (s := shell.toggle())["visible"] and s)
        expect(state["checked"] == enabled(daemon), "after the restart the toggle does not mirror Enabled")
        return f"hidden {seconds:.2f} s after the daemon stopped; back {back:.2f} s after it was on the bus again ({started:.2f} s start)"

    report.check("stopping the daemon hides the toggle, starting it shows it again", stopping_hides)

    def disable_undoes_everything():
        counts = ("return {grid: qs.menu._grid.get_n_children(), overlay: qs.menu._overlay.get_n_children(),"
                  " indicators: qs._indicators.get_n_children(), sources: Main.messageTray.getSources().length,"
                  " anywhere: findToggle(global.stage) !== null};")
        with_it = shell.eval(counts)
        shell.eval(f"Main.extensionManager.disableExtension('{UUID}'); return true;")
        wait_for("the extension to be disabled", lambda: shell.extension()["state"] == DISABLED)
        without = shell.eval(counts)
        expect(without["anywhere"] is False, "a Tilt Scroll toggle is still on the stage")
        for key in ("grid", "overlay", "indicators"):
            expect(without[key] == with_it[key] - 1, f"{key}: {with_it[key]} children enabled, {without[key]} disabled")
        expect(without["sources"] <= with_it["sources"], "a message tray source was left behind")
        shell.eval(f"Main.extensionManager.enableExtension('{UUID}'); return true;")
        wait_for("the extension to be enabled again", lambda: shell.extension()["state"] == ENABLED)
        state, _ = wait_for("the toggle again", lambda: (s := shell.toggle())["found"] and s["visible"] and s)
        expect(state["checked"] == enabled(daemon), "re-enabled, the toggle does not mirror Enabled")
        return f"grid, overlay and indicators each one child fewer ({without}); enabled again, it works"

    report.check("disable() takes away everything enable() added", disable_undoes_everything)
    return shell


def unprivileged_session(report, processes, run, system_bus, daemon, data_dirs):
    shell = Shell(processes, os.path.join(run, "shell-user"), system_bus, data_dirs, user=UNPRIVILEGED_USER)
    started = shell.start()
    say(f"GNOME Shell (as uid {UNPRIVILEGED_USER}) started in {started:.2f} s")

    def refusal_explained():
        state, _ = wait_for("the toggle", lambda: (s := shell.toggle())["found"] and s["visible"] and s)
        before = enabled(daemon)
        expect(state["checked"] == before, "the toggle does not mirror Enabled")
        refused = daemon.client("--toggle", user=UNPRIVILEGED_USER)
        expect(refused.returncode != 0, "tiltscrolld --toggle as an unprivileged user was not refused")
        shell.open_quick_settings()
        state, _ = wait_for("Quick Settings open with the toggle laid out", shell.settled)
        shell.click(state["labelBox"])
        note, seconds = wait_for(
            "a notification of the refusal",
            lambda: shell.eval(
                "const s = Main.messageTray.getSources().find(s => s.title === 'Tilt Scroll');"
                "const n = s?.notifications[0];"
                "return n ? {title: n.title, body: n.bannerBodyText} : null;"
            ),
        )
        expect(enabled(daemon) == before, "Enabled changed although the caller was refused")
        expect(shell.toggle()["checked"] == before, "the toggle changed although the daemon refused")
        expect(note["title"] == f"Not allowed to switch Tilt Scroll {'off' if before else 'on'}",
               f"notification title {note['title']!r}")
        expect(note["body"] != "" and "GDBus.Error" not in note["body"],
               f"the body should be the daemon's reason, without the D-Bus error name: {note['body']!r}")
        shell.screenshot("refused.png")
        return f"notified in {seconds:.2f} s: {note['title']!r}: {note['body']!r} (the command line said: {refused.stderr.strip()!r})"

    report.check("as an ordinary user without polkit: the tap is refused, the toggle stays, a notification says why",
                 refusal_explained)
    return shell


def save_readme_picture(pixbuf, box, path, margin=12):
    """The open Quick Settings and nothing else (the panel shows the test's
    unsafe-mode indicator)."""
    x = max(int(box["x"]) - margin, 0)
    y = int(box["y"])  # the box pointer's own padding is the margin above
    w = min(int(box["w"]) + 2 * margin, pixbuf.get_width() - x)
    h = min(int(box["h"]) + margin, pixbuf.get_height() - y)
    pixbuf.new_subpixbuf(x, y, w, h).savev(path, "png", [], [])
    say(f"     README picture: {path} ({w}x{h})")


def main():
    keep = "--keep" in sys.argv[1:]
    run = tempfile.mkdtemp(prefix="tiltscroll-gnome.", dir="/tmp")
    os.chmod(run, 0o755)
    say(f"run directory: {run}; daemon: {DAEMON}")
    processes = Processes()
    report = Report()
    shells = []
    try:
        expect(os.path.isfile(POLICY), f"{POLICY} is missing: the daemon's D-Bus policy (issue 12) is needed on the bus")
        # The extension as `make install` puts it, system-wide in a staging root.
        stage = os.path.join(run, "stage")
        subprocess.run(
            ["make", "--no-print-directory", "-s", "-C", ROOT, "install", f"DESTDIR={stage}", "PREFIX=/usr", f"BIN={DAEMON}"],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        data_dirs = f"{stage}/usr/share:/usr/share"
        install_dir = f"{stage}/usr/share/gnome-shell/extensions"
        expect(os.path.isfile(os.path.join(install_dir, UUID, "metadata.json")), f"make install put no extension in {install_dir}")

        system_bus = Bus(
            processes, "system", SYSTEM_POLICY, os.path.join(run, "system_bus_socket"), os.path.join(run, "system.conf")
        )
        daemon = Daemon(processes, run, system_bus)
        say(f"tiltscrolld on the private system bus in {daemon.start():.2f} s")

        # One shell at a time: each is a few hundred MiB and most of the CPU.
        for session in (
            lambda: privileged_session(report, processes, run, system_bus, daemon, data_dirs, install_dir),
            lambda: unprivileged_session(report, processes, run, system_bus, daemon, data_dirs),
        ):
            shell = session()
            shells.append(shell)
            say(f"GNOME Shell as {shell.user or 'root'}: {resident_mib(shell.process.pid)} MiB resident at the end")
            processes.stop(shell.process)
            processes.stop(shell.session_bus.process)

        def clean_logs():
            problems = [line for shell in shells for line in shell.log_problems()]
            expect(not problems, "the shell logged:\n  " + "\n  ".join(problems))
            return f"{', '.join(s.log_path for s in shells)}: no JavaScript error or warning, nothing about the extension"

        report.check("the shells' logs have no error", clean_logs)

        def uninstall():
            subprocess.run(["make", "--no-print-directory", "-s", "-C", ROOT, "uninstall", f"DESTDIR={stage}", "PREFIX=/usr"],
                           check=True, stdout=subprocess.DEVNULL)
            expect(not os.path.exists(os.path.join(install_dir, UUID)), "make uninstall left the extension's directory")

        report.check("make uninstall removes the extension", uninstall)
    except (Failure, GLib.Error, subprocess.CalledProcessError) as error:
        say(f"not ok - setting up: {error}")
        report.failed += 1
    finally:
        processes.stop_all()
        report.summary()
        if keep or report.failed:
            say(f"logs and screenshots kept in {run}")
        else:
            shutil.rmtree(run, ignore_errors=True)
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
