"""A headless GNOME Shell of its own, and the questions the harness asks it."""

import json
import os
import re
import shutil

import gi

gi.require_version("GdkPixbuf", "2.0")
from gi.repository import GdkPixbuf, GLib  # noqa: E402

from buses import SESSION_POLICY, Bus, call, tail  # noqa: E402
from common import HELPER_UUID, HERE, UUID, Failure, wait_for  # noqa: E402

MONITOR = "1280x800"


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
        return (
            state["quickSettingsOpen"]
            and state["mapped"]
            and not state["overviewVisible"]
            and None not in state["box"].values()
            and state
        )

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
