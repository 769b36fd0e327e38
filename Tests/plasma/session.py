"""A person's desktop as the applet's tests need it: an X server (Xvfb), the
accessibility bus that screen readers read Qt's widgets through, a session
bus with a notification server (python-dbusmock's notification_daemon
template, which records what it is asked to show), and Plasma's own
plasmoidviewer showing the applet as `make install` put it.

The harness sees the applet as a screen reader does (AT-SPI: each control's
role, name, state, value and place on the screen) and acts on it as a
person does: real pointer events through the X server (xdotool)."""

import html
import os
import signal
import subprocess

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, GLib  # noqa: E402

from system import Bus, Failure, call, has_owner, tail, wait_for, wait_for_socket  # noqa: E402

# The session bus: anyone may connect (the harness, as root, reads what the
# person's applet sent), nothing is activatable.
SESSION_POLICY = """  <policy context="default">
    <allow user="*"/>
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>"""

# The accessibility bus, as at-spi's own accessibility.conf makes it, but
# open to every user: the applet runs as the person, the harness as root.
ACCESSIBILITY_POLICY = """  <policy context="default">
    <allow user="*"/>
    <allow send_destination="*"/>
    <allow receive_type="method_call"/>
    <allow receive_type="method_return"/>
    <allow receive_type="error"/>
    <allow receive_type="signal"/>
    <allow own="*"/>
  </policy>"""

REGISTRYD = "/usr/libexec/at-spi2-registryd"
NOTIFICATIONS = "org.freedesktop.Notifications"
NOTIFICATIONS_PATH = "/org/freedesktop/Notifications"

APPLET_ID = "io.github.tiltscroll"
VIEWER_SIZE = (900, 700)


class Screen:
    """Xvfb, the accessibility bus and its registry, for the whole run."""

    def __init__(self, processes, directory, display=71):
        self.processes, self.directory = processes, directory
        self.display = f":{display}"
        socket_path = f"/tmp/.X11-unix/X{display}"
        if os.path.exists(socket_path):
            os.unlink(socket_path)
        self.xvfb = processes.start(
            "Xvfb",
            ["Xvfb", self.display, "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset"],
            {"PATH": os.environ["PATH"]},
            os.path.join(directory, "xvfb.log"),
        )
        wait_for_socket(socket_path, self.xvfb, "Xvfb")
        self.a11y = Bus(processes, "accessibility", ACCESSIBILITY_POLICY, directory)
        env = {"PATH": os.environ["PATH"], "AT_SPI_BUS_ADDRESS": self.a11y.address, "DISPLAY": self.display}
        self.registry = processes.start("at-spi2-registryd", [REGISTRYD], env, os.path.join(directory, "registryd.log"))
        wait_for("the AT-SPI registry", lambda: has_owner(self.a11y.connection, "org.a11y.atspi.Registry"))
        # libatspi reads the address once, at its first use.
        os.environ["AT_SPI_BUS_ADDRESS"] = self.a11y.address
        Atspi.init()

    def click(self, box, where=(0.5, 0.5), button=1):
        """A real pointer click at a point of box (x, y, width, height). (No
        --sync: it waits for a motion that never comes when the pointer is
        there already.)"""
        x = int(box[0] + box[2] * where[0])
        y = int(box[1] + box[3] * where[1])
        subprocess.run(
            ["xdotool", "mousemove", str(x), str(y), "click", str(button)],
            env={"PATH": os.environ["PATH"], "DISPLAY": self.display},
            check=True,
            timeout=10,
        )

    def screenshot(self, path):
        """The whole screen, the pointer parked in a corner first so that no
        tooltip covers what the picture is for."""
        env = {"PATH": os.environ["PATH"], "DISPLAY": self.display}
        subprocess.run(["xdotool", "mousemove", "0", "799"], env=env, check=True, timeout=10)
        subprocess.run(
            ["import", "-display", self.display, "-window", "root", path],
            env={"PATH": os.environ["PATH"]},
            check=True,
            timeout=30,
        )
        return path


    def crop(self, path, box, target):
        x, y, width, height = box
        subprocess.run(
            ["convert", path, "-crop", f"{width}x{height}+{x}+{y}", "+repage", "-strip", target],
            env={"PATH": os.environ["PATH"]},
            check=True,
            timeout=30,
        )


class Control:
    """What AT-SPI says of one control, read once."""

    def __init__(self, accessible):
        self.role = accessible.get_role_name()
        self.name = accessible.get_name() or ""
        self.description = accessible.get_description() or ""
        states = accessible.get_state_set()
        self.showing = states.contains(Atspi.StateType.SHOWING)
        self.visible = states.contains(Atspi.StateType.VISIBLE)
        self.enabled = states.contains(Atspi.StateType.ENABLED) or states.contains(Atspi.StateType.SENSITIVE)
        self.checked = states.contains(Atspi.StateType.CHECKED)
        if accessible.get_component_iface() is not None:
            r = Atspi.Component.get_extents(accessible, Atspi.CoordType.SCREEN)
            self.box = (r.x, r.y, r.width, r.height)
        else:
            self.box = None
        if accessible.get_value_iface() is not None:
            self.value = Atspi.Value.get_current_value(accessible)
        else:
            self.value = None
        if accessible.get_text_iface() is not None:
            self.text = Atspi.Text.get_text(accessible, 0, Atspi.Text.get_character_count(accessible))
        else:
            self.text = None

    def __repr__(self):
        return f"<{self.role} {self.name!r} showing={self.showing} enabled={self.enabled} checked={self.checked} value={self.value} box={self.box}>"


class Desktop:
    """The person's session: a session bus with the notification server, and
    plasmoidviewer showing the applet, as `uid`."""

    def __init__(self, processes, directory, screen, system_bus, data_dirs, uid, language=None):
        self.processes, self.directory, self.screen, self.uid = processes, directory, screen, uid
        os.makedirs(directory)
        os.chmod(directory, 0o755)
        # The person's session bus puts its socket here.
        os.chown(directory, uid, uid)
        self.home = os.path.join(directory, "home")
        self.runtime = os.path.join(directory, "runtime")
        for path, mode in ((self.home, 0o755), (self.runtime, 0o700)):
            os.makedirs(path)
            os.chmod(path, mode)
            os.chown(path, uid, uid)
        self.session_bus = Bus(processes, "session", SESSION_POLICY, directory, user=uid)
        base = {"PATH": os.environ["PATH"], "DBUS_SESSION_BUS_ADDRESS": self.session_bus.address}
        self.notifications = processes.start(
            "notification server",
            ["python3", "-m", "dbusmock", "--template", "notification_daemon"],
            base,
            os.path.join(directory, "notifications.log"),
        )
        wait_for("the notification server", lambda: has_owner(self.session_bus.connection, NOTIFICATIONS))
        self.env = dict(
            base,
            HOME=self.home,
            XDG_RUNTIME_DIR=self.runtime,
            XDG_DATA_DIRS=data_dirs,
            XDG_CONFIG_DIRS="/etc/xdg",
            DISPLAY=screen.display,
            DBUS_SYSTEM_BUS_ADDRESS=system_bus.address,
            AT_SPI_BUS_ADDRESS=screen.a11y.address,
            # Qt speaks AT-SPI without asking the session whether a screen
            # reader runs.
            QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1",
            QT_QPA_PLATFORM="xcb",
            QT_QPA_PLATFORMTHEME="kde",
            LANG="C.UTF-8",
        )
        if language is not None:
            # glibc's gettext ignores LANGUAGE in the C locale, and the root
            # has no other: one of the language's own, made here (LOCPATH).
            locales = os.path.join(directory, "locale")
            name = f"{language}_{language.upper()}.UTF-8"
            os.makedirs(locales)
            subprocess.run(
                ["localedef", "-i", f"{language}_{language.upper()}", "-f", "UTF-8", os.path.join(locales, name)],
                env={"PATH": os.environ["PATH"]},
                check=True,
                timeout=60,
            )
            self.env.update(LOCPATH=locales, LANG=name, LANGUAGE=language)
        # Plasma's own window manager keeps its popups above the windows they
        # open from; without one, X stacks them as they happen to be mapped.
        # No compositing: nothing here needs it, and Xvfb has no GPU.
        self.window_manager = processes.start(
            "kwin_x11", ["kwin_x11"], dict(self.env, KWIN_COMPOSE="N"), os.path.join(directory, "kwin.log"), user=uid
        )
        wait_for("KWin on the session bus", lambda: has_owner(self.session_bus.connection, "org.kde.KWin"), timeout=60)
        self.log_path = os.path.join(directory, "plasmoidviewer.log")
        self.viewer = None

    def start_viewer(self):
        self.viewer = self.processes.start(
            "plasmoidviewer",
            ["plasmoidviewer", "-a", APPLET_ID, "-s", f"{VIEWER_SIZE[0]}x{VIEWER_SIZE[1]}"],
            self.env,
            self.log_path,
            user=self.uid,
        )
        _, seconds = wait_for("plasmoidviewer on the accessibility bus", lambda: self.application(), timeout=60)
        return seconds

    def application(self):
        if self.viewer.poll() is not None:
            raise Failure(f"plasmoidviewer exited with status {self.viewer.returncode}:\n{tail(self.log_path)}")
        desktop = Atspi.get_desktop(0)
        for i in range(desktop.get_child_count()):
            app = desktop.get_child_at_index(i)
            if app is not None and app.get_process_id() == self.viewer_pid():
                app.set_cache_mask(Atspi.Cache.NONE)
                return app
        return None

    def viewer_pid(self):
        # setpriv execs plasmoidviewer: the same process.
        return self.viewer.pid

    def controls(self):
        """Every control of plasmoidviewer's windows, as AT-SPI has them now."""
        app = self.application()
        if app is None:
            return []
        app.clear_cache()
        found = []

        def walk(node, depth):
            if node is None or depth > 60:
                return
            try:
                found.append(Control(node))
                count = node.get_child_count()
            except GLib.Error:
                return
            for i in range(count):
                try:
                    walk(node.get_child_at_index(i), depth + 1)
                except GLib.Error:
                    pass

        for i in range(app.get_child_count()):
            walk(app.get_child_at_index(i), 0)
        return found

    def find(self, role, name=None, showing=True):
        """The first control of that role (and name) on the screen now, or None."""
        for control in self.controls():
            if control.role == role and (name is None or control.name == name) and (control.showing or not showing):
                return control
        return None

    def descendants(self):
        """plasmoidviewer's processes: (pid, argv) of every process below it."""
        parents, argvs = {}, {}
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                with open(f"/proc/{pid}/stat") as f:
                    parents[int(pid)] = int(f.read().rsplit(")", 1)[1].split()[1])
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    argvs[int(pid)] = f.read().split(b"\0")
            except (OSError, IndexError, ValueError):
                continue
        found = []
        for pid in parents:
            ancestor = parents[pid]
            while ancestor > 1 and ancestor != self.viewer.pid:
                ancestor = parents.get(ancestor, 0)
            if ancestor == self.viewer.pid:
                found.append((pid, argvs.get(pid, [])))
        return found

    def waiters(self):
        """The applet's `busctl wait` processes."""
        return [pid for pid, argv in self.descendants() if argv and os.path.basename(argv[0]) == b"busctl" and b"wait" in argv]

    def notified(self):
        """What the applet asked the notification server to show: (summary, body) pairs."""
        calls = call(
            self.session_bus.connection,
            NOTIFICATIONS,
            NOTIFICATIONS_PATH,
            "org.freedesktop.DBus.Mock",
            "GetMethodCalls",
            GLib.Variant("(s)", ("Notify",)),
            "(a(tav))",
        )[0]
        shown = []
        for _, args in calls:
            # app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout
            shown.append((html.unescape(args[3]), html.unescape(args[4]), args[0], args[2]))
        return shown

    def log_lines(self):
        with open(self.log_path, errors="replace") as f:
            return [line.rstrip("\n") for line in f]

    def stop(self):
        """As a session ends: plasmoidviewer and everything it started (its
        process group), then the session's own services."""
        if self.viewer is not None:
            try:
                os.killpg(self.viewer.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            self.processes.stop(self.viewer)
        self.processes.stop(self.window_manager)
        self.processes.stop(self.notifications)
        self.processes.stop(self.session_bus.process)
