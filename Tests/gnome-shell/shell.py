"""A headless GNOME Shell of its own, and the questions the harness asks it."""

import json
import os
import re
import shutil
import subprocess
import zipfile

import gi

gi.require_version("GdkPixbuf", "2.0")
from gi.repository import GdkPixbuf, GLib  # noqa: E402

from buses import SESSION_POLICY, Bus, call, tail  # noqa: E402
from common import HELPER_UUID, HERE, UUID, Failure, wait_for  # noqa: E402

MONITOR = "1280x800"


def shell_major():
    """The major version of the gnome-shell on PATH (43 on Debian 12, 48 on Debian 13)."""
    said = subprocess.run(["gnome-shell", "--version"], capture_output=True, text=True, check=True).stdout
    match = re.match(r"GNOME Shell (\d+)", said)
    if not match:
        raise Failure(f"gnome-shell --version said {said!r}")
    return int(match.group(1))


SHELL_MAJOR = shell_major()
# The extension's build for this shell, as the Makefile's GNOME_EXTENSION_FLAVOUR=auto picks it.
FLAVOUR = 43 if SHELL_MAJOR < 45 else 45

# What the shells log at every start on these private buses, with or without
# extensions: their calendar server is a session service this bus has no
# .service file for (43 through GJS, 48 through the shell's console), and 43
# misses gnome-control-center. Matched exactly, and only when no frame of the
# stack is outside the shell's and GJS's own code.
KNOWN_SHELL_ERRORS = {
    "JS ERROR: Gio.DBusError: GDBus.Error:org.freedesktop.DBus.Error.ServiceUnknown: "
    "The name org.gnome.Shell.CalendarServer was not provided by any .service files",
    "Gio.DBusError: GDBus.Error:org.freedesktop.DBus.Error.ServiceUnknown: "
    "The name org.gnome.Shell.CalendarServer was not provided by any .service files",
    "Missing required core component Settings, expect trouble…",
}
OWN_CODE = "resource:///org/gnome/"
# A warning or error of GJS or of the shell's JavaScript (console.warn and
# console.error land in the "GNOME Shell" domain from 45 on).
PROBLEM = re.compile(r"^\(gnome-shell:\d+\): (?:Gjs|GNOME Shell)-(?:WARNING|CRITICAL) \*\*: [0-9:.]+: (.*)$")
# A frame of a JavaScript stack, as GJS prints it after an error (the
# function may be empty, the line may be indented under "Stack trace:").
STACK_FRAME = re.compile(r"^\s*\S*?@(\S+):\d+:\d+$")


# The modules a question needs, as each shell's org.gnome.Shell.Eval can
# reach them: 43 evaluates a script, where imports.* are the shell's modules;
# 45 and later evaluate in an ES module and await the result, so the shell's
# own modules come from import(), which hands out the instances it runs.
IMPORTS = {
    43: """
const Main = imports.ui.main;
const {Clutter, GLib, St} = imports.gi;
const QuickSettings = imports.ui.quickSettings;
const {PopupAnimation} = imports.ui.boxpointer;
""",
    45: """
const Main = await import('resource:///org/gnome/shell/ui/main.js');
const QuickSettings = await import('resource:///org/gnome/shell/ui/quickSettings.js');
const {PopupAnimation} = await import('resource:///org/gnome/shell/ui/boxpointer.js');
const {default: Clutter} = await import('gi://Clutter');
const {default: GLib} = await import('gi://GLib');
const {default: St} = await import('gi://St');
""",
}

# A toggle's name: 43's label, 44's title (reading label there warns).
TITLE_OF = {43: "actor.label", 45: "actor.title"}

# Run inside the shell before each question: finds things by what a person
# sees (the toggle by its name, its label by its text) in the actor tree.
PRELUDE = (
    IMPORTS[FLAVOUR]
    + """
const qs = Main.panel.statusArea.quickSettings;
const descendants = function* (actor) {
    for (const child of actor) {
        yield child;
        yield* descendants(child);
    }
};
const titleOf = actor => """
    + TITLE_OF[FLAVOUR]
    + """;
const findToggle = (top = qs.menu.box) => {
    for (const actor of descendants(top)) {
        if (actor instanceof QuickSettings.QuickMenuToggle && titleOf(actor) === 'Tilt Scroll')
            return actor;
    }
    return null;
};
const boxOf = actor => {
    const [x, y] = actor.get_transformed_position();
    const [w, h] = actor.get_transformed_size();
    return {x, y, w, h};
};
const colorOf = color => color ? [color.red, color.green, color.blue, color.alpha] : null;
const pointer = () => {
    if (!globalThis._tiltscrollTestPointer) {
        const seat = Clutter.get_default_backend().get_default_seat();
        globalThis._tiltscrollTestPointer =
            seat.create_virtual_device(Clutter.InputDeviceType.POINTER_DEVICE);
    }
    return globalThis._tiltscrollTestPointer;
};
"""
)

# The toggle's subtitle (44 and later): the state, as the menu's header says it.
TOGGLE_SUBTITLE = {43: "null", 45: "t.subtitle"}

TOGGLE_STATE = (
    """
const t = findToggle();
if (!t)
    return {found: false};
const slider = t.menu.box.get_children().flatMap(c => [...descendants(c)])
    .find(a => a.accessible_name === 'Sensitivity' && 'value' in a) ?? null;
const items = t.menu._getMenuItems();
const calibrate = items.find(i => i.label?.text === 'Re-centre') ?? null;
// The toggle's name as drawn, and what paints the background behind it (43:
// the toggle; 44 and later: the part of it left of the menu arrow).
const label = [...descendants(t)].find(a => a instanceof St.Label && a.text === 'Tilt Scroll');
let painted = label;
while (painted !== t && painted.get_theme_node().get_background_color().alpha === 0)
    painted = painted.get_parent();
return {
    found: true,
    visible: t.visible,
    mapped: t.mapped,
    checked: t.checked,
    label: titleOf(t),
    toggleSubtitle: """
    + TOGGLE_SUBTITLE[FLAVOUR]
    + """,
    box: boxOf(t),
    labelBox: boxOf(label),
    arrowBox: boxOf(t._menuButton),
    background: colorOf(painted.get_theme_node().get_background_color()),
    backgroundBox: boxOf(painted),
    menuBox: boxOf(t.menu.box),
    menuTitleBox: boxOf(t.menu._headerTitle),
    menuBackground: colorOf([t.menu._header, t.menu.box, t.menu.actor]
        .map(a => a.get_theme_node().get_background_color())
        .find(c => c.alpha === 255)),
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
)


class Shell:
    """A headless GNOME Shell with its own session bus, as `user` (None: root)."""

    def __init__(self, processes, directory, system_bus, data_dirs, user=None, extension_zip=None):
        """extension_zip: the extension's zip for extensions.gnome.org, to
        unpack as this user's own extension, where `gnome-extensions install`
        puts it."""
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
            os.path.join(HERE, "unsafe-mode-for-tests", str(FLAVOUR)),
            os.path.join(dirs["data"], "gnome-shell", "extensions", HELPER_UUID),
        )
        if extension_zip is not None:
            with zipfile.ZipFile(extension_zip) as archive:
                archive.extractall(os.path.join(dirs["data"], "gnome-shell", "extensions", UUID))
        self.data_home = dirs["data"]
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
        code = ("(async () => {" if FLAVOUR >= 45 else "(() => {") + PRELUDE + body + "\n})()"
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
            "qs.menu.open(PopupAnimation.NONE);"
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

    def module(self, name):
        """JavaScript that binds `module` to one of the extension's modules,
        the instance the extension itself runs: 43's are the extension's
        imports; later ones are ES modules, one per URI."""
        lookup = f"Main.extensionManager.lookup('{UUID}')"
        if FLAVOUR >= 45:
            return f"const module = await import({lookup}.dir.get_child('{name}.js').get_uri());"
        return f"const module = {lookup}.imports.{name};"

    def extension(self, uuid=UUID):
        return self.eval(
            f"const e = Main.extensionManager.lookup('{uuid}');"
            "return e ? {state: e.state, type: e.type, path: e.path, error: e.error ?? ''} : null;"
        )

    def log_problems(self):
        """What the shell's log says of the extension, and every warning or
        error of GJS or the shell's JavaScript except those a shell says at
        every start when no desktop session is around it (KNOWN_SHELL_ERRORS)."""
        with open(self.log_path, errors="replace") as f:
            lines = f.read().splitlines()
        problems = []
        for i, line in enumerate(lines):
            if UUID in line or "Tilt Scroll" in line:
                problems.append(line)
                continue
            problem = PROBLEM.match(line)
            if not problem:
                continue
            stack = []
            for following in lines[i + 1 :]:
                if STACK_FRAME.match(following):
                    stack.append(following)
                elif stack or following.strip() not in ("", "Stack trace:"):
                    break  # the stack ended, or there is none
            known = problem.group(1) in KNOWN_SHELL_ERRORS and all(
                STACK_FRAME.match(frame).group(1).startswith(OWN_CODE) for frame in stack
            )
            if not known:
                problems.append("\n    ".join([line] + stack))
        return problems
