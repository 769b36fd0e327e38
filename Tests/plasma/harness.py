#!/usr/bin/python3
"""The Tilt Scroll applet (plasma/) in Plasma 6.3's own plasmoidviewer,
under Xvfb with KWin, driving the real tiltscrolld over a private system bus
checked by the real polkitd. Runs inside the Debian 13 root
(tools/trixie-root), started by ./run; README.md in this directory says
what each check proves and how the pieces are set up.
"""

import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

from gi.repository import GLib

from session import APPLET_ID, Desktop, Screen
from system import (
    DENIED,
    GRANTED,
    POLKIT_BUS_POLICY,
    ROOT,
    SYSTEM_BUS_POLICY,
    Bus,
    Daemon,
    Failure,
    Polkit,
    Processes,
    make_people_and_polkit,
    say,
    wait_for,
)

DAEMON = os.environ.get("TILTSCROLLD", os.path.join(ROOT, ".build", "release", "tiltscrolld"))
KEEP_SCREENSHOTS = os.environ.get("SCREENSHOTS")
# The README's picture: the open popup, cut out of popup.png.
README_PICTURE = os.environ.get("README_PICTURE")

# What the popup calls each State (plasma/contents/ui/main.qml stateTitle).
TITLES = {
    "off": "Off",
    "waiting-for-sensor": "No sensor",
    "resting": "Resting",
    "touched": "Touched",
}


def expected_title(name, enabled):
    if enabled and name in ("off", "paused"):
        return "Paused"
    return TITLES.get(name, "Active")


def factor_for_position(position):
    """gnome-shell/sensitivity.js factorForPosition, for the expected value."""
    position = min(max(position, 0.0), 1.0)
    factor = 0.25 * 16**position
    if 1 / 1.04 < factor < 1.04:
        return 1.0
    return min(max(round(factor * 100) / 100, 0.25), 4.0)


def position_for_factor(factor):
    return min(max(math.log(factor / 0.25) / math.log(16), 0.0), 1.0)


def format_factor(factor):
    return f"{factor:.{2 if factor < 1 else 1}f}×"


# The only QML message of the run that is not the applet's: plasmoidviewer's
# default containment (org.kde.desktopcontainment) logs a binding loop of
# its own at every start, on two lines.
CONTAINMENT_BINDING_LOOP = (
    re.compile(
        r"^file:///usr/share/plasma/plasmoids/org\.kde\.desktopcontainment/contents/ui/main\.qml:\d+:\d+: "
        r"QML FolderViewDropArea \(parent or ancestor of QQuickLayoutAttached\): "
        r'Binding loop detected for property "minimumWidth":$'
    ),
    re.compile(r"^file:///usr/share/plasma/plasmoids/org\.kde\.desktopcontainment/contents/ui/main\.qml:\d+:\d+$"),
)
# plasmoidviewer's own QML says these (console.log): information, not problems.
VIEWER_INFORMATION = (
    re.compile(r"^QML debugging is enabled\. Only use this in a safe environment\.$"),
    re.compile(r"^qml: View QML loaded$"),
    re.compile(r"^qml: New Containment: ContainmentItem_QML_\d+\(0x[0-9a-f]+, \"desktop\"\)$"),
)
QML_MESSAGE = re.compile(r"file://|qrc:/|^qml:|qt\.qml|QML|TypeError|ReferenceError|SyntaxError|tiltscroll", re.IGNORECASE)


def qml_problems(lines):
    problems = []
    for line in lines:
        if not QML_MESSAGE.search(line):
            continue
        if any(p.match(line) for p in CONTAINMENT_BINDING_LOOP + VIEWER_INFORMATION):
            continue
        problems.append(line)
    return problems


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


class Popup:
    """The applet's controls as a person sees them, read through AT-SPI."""

    def __init__(self, desktop, tr=lambda text: text):
        self.desktop = desktop
        # The applet's words as this person reads them (translated() for the test language).
        self.tr = tr

    def icon(self):
        return self.desktop.find("button", "Tilt Scroll")

    def switch(self):
        return self.desktop.find("check box", self.tr("Tilt scrolling"))

    def recentre(self):
        return self.desktop.find("button", self.tr("Re-centre"))

    def slider(self):
        return self.desktop.find("slider", self.tr("Sensitivity"))

    def read(self):
        """Everything the popup shows, from one walk of the tree."""
        controls = [c for c in self.desktop.controls() if c.showing]

        def first(role, name=None):
            return next((c for c in controls if c.role == role and (name is None or c.name == name)), None)

        switch = first("check box", self.tr("Tilt scrolling"))
        slider = first("slider", self.tr("Sensitivity"))
        recentre = first("button", self.tr("Re-centre"))
        labels = [c.name for c in controls if c.role == "label"]
        return {
            "switch": switch,
            "slider": slider,
            "recentre": recentre,
            "labels": labels,
            "heading": first("heading", self.tr("Tilt Scroll")),
        }


def refused_words(daemon, enabled, user):
    """The daemon's own words when `user` asks it to set Enabled, as
    dbus-send reports them ("Error NAME: MESSAGE"; busctl says only
    "Access denied" for AccessDenied): (error name, message)."""
    result = subprocess.run(
        [
            "setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", "--",
            "dbus-send", "--system", "--print-reply", "--dest=io.github.tiltscroll.TiltScroll1",
            "/io/github/tiltscroll/TiltScroll1", "org.freedesktop.DBus.Properties.Set",
            "string:io.github.tiltscroll.TiltScroll1", "string:Enabled", f"variant:boolean:{'true' if enabled else 'false'}",
        ],
        env=daemon.env, capture_output=True, text=True, timeout=30,
    )
    expect(result.returncode != 0, f"dbus-send as uid {user} was not refused: {result.stdout!r}")
    match = re.match(r"Error (\S+): (.*)$", result.stderr.strip(), re.DOTALL)
    expect(match is not None, f"dbus-send said {result.stderr.strip()!r}")
    return match.group(1), match.group(2)


def same_words(body, said):
    """The notification's body is the daemon's message, capitalized, whoever
    asked (the callers' unique bus names differ)."""

    def plain(text):
        return re.sub(r":\d+\.\d+", ":N", text)

    return plain(body) == plain(said[:1].upper() + said[1:])


TEMPLATE = os.path.join(ROOT, "plasma", "po", "plasma_applet_io.github.tiltscroll.pot")
# What the popup says while tiltscrolld is not on the bus (PlasmaExtras.PlaceholderMessage).
PLACEHOLDER = "Tilt scrolling is not available"


def template_messages():
    with open(TEMPLATE) as f:
        return {m for m in re.findall(r'^msgid "(.*)"$', f.read(), re.MULTILINE) if m}


def popup_texts(desktop, shown):
    """Every name and description of the controls inside the popup (the
    rectangle around its heading, switch, Re-centre and slider), line by
    line: not plasmoidviewer's toolbar, not the icon, which libplasma
    describes in words of its own ("Open" and the tooltip)."""
    parts = [shown[key].box for key in ("heading", "switch", "recentre", "slider")]
    left, top = min(b[0] for b in parts) - 12, min(b[1] for b in parts) - 12
    right, bottom = max(b[0] + b[2] for b in parts) + 12, max(b[1] + b[3] for b in parts) + 12
    texts = set()
    for c in desktop.controls():
        if c.showing and c.box and left <= c.box[0] + c.box[2] / 2 <= right and top <= c.box[1] + c.box[3] / 2 <= bottom:
            texts |= set(c.name.split("\n")) | set(c.description.split("\n"))
    return texts - {""}


def untranslatable(texts, daemon, words):
    """What the popup shows in words that are neither one of `words` (the
    template's messages, or their translations) nor the daemon's own (its
    reason, a number)."""
    reason = daemon.get("State")[1]
    factor = format_factor(daemon.get("Sensitivity"))
    return sorted(texts - words - {reason, factor})


def daemon_reason(shown):
    """The popup's longest label: the daemon's reason."""
    return max(shown["labels"], key=len)


# The test's own translation, made from the template at run time: every
# message in guillemets, for a language no one will ship (the second person
# reads the applet in it, which proves the catalog is built, installed and
# found, and that every word goes through i18n).
TEST_LANGUAGE = "de"


def translated(text):
    return f"«{text}»"


def write_test_translation(directory):
    """A .po of TEST_LANGUAGE with translated() of every message of the template."""
    with open(TEMPLATE) as f:
        text = f.read()
    text = text.replace("#, fuzzy\n", "", 1)
    text = text.replace("charset=CHARSET", "charset=UTF-8").replace('"Language: \\n"', f'"Language: {TEST_LANGUAGE}\\n"')
    text = text.replace("YEAR-MO-DA HO:MI+ZONE", "2026-01-01 00:00+0000").replace("FULL NAME <EMAIL@ADDRESS>", "Tests/plasma")
    text = text.replace("LANGUAGE <LL@li.org>", "Tests/plasma")
    text = re.sub(r'^(msgid "(.+)"\n)msgstr ""$', lambda m: f'{m.group(1)}msgstr "{translated(m.group(2))}"', text, flags=re.MULTILINE)
    os.makedirs(directory)
    with open(os.path.join(directory, f"{TEST_LANGUAGE}.po"), "w") as f:
        f.write(text)


def snapshot(daemon):
    return {name: daemon.get(name) for name in ("Enabled", "State", "Active", "Sensitivity")}


def popup_agrees(popup, daemon):
    """What the popup shows if it agrees with what the daemon said just before
    and just after; None while the daemon changes; Failure otherwise."""
    before = snapshot(daemon)
    shown = popup.read()
    if snapshot(daemon) != before:
        return None
    name, reason = before["State"]
    expect(shown["switch"] is not None, "the popup shows no switch")
    problems = []
    if shown["switch"].checked != before["Enabled"]:
        problems.append(f"switch {'on' if shown['switch'].checked else 'off'}, Enabled {before['Enabled']}")
    title = popup.tr(expected_title(name, before["Enabled"]))
    if title not in shown["labels"]:
        problems.append(f"no {title!r} among the labels {shown['labels']}")
    if reason and reason not in shown["labels"]:
        problems.append(f"the reason {reason!r} is not shown")
    if shown["recentre"] is None or shown["recentre"].enabled != before["Active"]:
        problems.append(f"Re-centre {shown['recentre']}, Active {before['Active']}")
    if shown["slider"] is None or abs(shown["slider"].value - position_for_factor(before["Sensitivity"])) > 1e-6:
        problems.append(f"slider {shown['slider']}, Sensitivity {before['Sensitivity']}")
    if format_factor(before["Sensitivity"]) not in shown["labels"]:
        problems.append(f"no {format_factor(before['Sensitivity'])!r} among the labels")
    if problems:
        return Failure("; ".join(problems))
    return shown


def agrees(popup, daemon, what):
    """Waits until the popup agrees with the daemon (a Failure is kept as the
    last thing seen, until the time is up)."""

    def probe():
        result = popup_agrees(popup, daemon)
        if isinstance(result, Failure):
            raise result
        return result

    return wait_for(what, probe)


def open_popup(screen, popup):
    icon, _ = wait_for("the applet's icon", popup.icon, timeout=30)
    screen.click(icon.box)

    def opened():
        if popup.switch():
            return True
        raise Failure(f"the screen shows {[(c.role, c.name) for c in popup.desktop.controls() if c.showing and c.name]}")

    _, seconds = wait_for("the popup to open", opened)
    return seconds


def granted_session(report, processes, run, screen, system_bus, polkit, daemon, data_dirs, shots):
    desktop = Desktop(processes, os.path.join(run, "granted"), screen, system_bus, data_dirs, GRANTED[1])
    popup = Popup(desktop)
    say(f"plasmoidviewer (as {GRANTED[0]}) on the accessibility bus in {desktop.start_viewer():.2f} s")

    def icon_shown():
        icon, seconds = wait_for("the applet's icon", popup.icon, timeout=30)
        expect(icon.box[2] > 0 and icon.box[3] > 0, f"the icon has no size: {icon}")
        return f"{icon.box[2]}x{icon.box[3]} at {icon.box[0]},{icon.box[1]}, {seconds:.2f} s after the viewer was up"

    if not report.check("plasmoidviewer shows the installed applet's icon", icon_shown):
        return desktop

    def popup_shows_state():
        seconds = open_popup(screen, popup)
        shown, _ = agrees(popup, daemon, "the popup to agree with the daemon")
        expect(shown["heading"] is not None, "the popup has no heading Tilt Scroll")
        path = screen.screenshot(shots("popup.png"))
        texts = popup_texts(desktop, shown)
        stray = untranslatable(texts, daemon, template_messages())
        expect(not stray, f"shown without i18n: {stray}")
        switch, recentre = shown["switch"], shown["recentre"]
        if README_PICTURE:
            parts = [shown["heading"].box, switch.box, recentre.box, shown["slider"].box]
            left, top = min(b[0] for b in parts) - 12, min(b[1] for b in parts) - 12
            right, bottom = max(b[0] + b[2] for b in parts) + 12, max(b[1] + b[3] for b in parts) + 12
            screen.crop(path, (left, top, right - left, bottom - top), README_PICTURE)
        # A finger's worth: Plasma's grid unit is 18 px here.
        expect(switch.box[3] >= 36 and recentre.box[3] >= 36, f"controls too small to tap: {switch}, {recentre}")
        return (
            f"open {seconds:.2f} s after a tap on the icon; switch {'on' if switch.checked else 'off'}, "
            f"labels {shown['labels']}, slider {shown['slider'].value:.3f}; {path}"
        )

    if not report.check("a tap on the icon opens the popup, which shows the daemon's state", popup_shows_state):
        return desktop

    def tap_flips_enabled():
        before = daemon.get("Enabled")
        screen.click(popup.switch().box)
        _, seconds = wait_for("Enabled to flip after the tap", lambda: daemon.get("Enabled") != before)
        _, followed = agrees(popup, daemon, "the popup to follow")
        screen.screenshot(shots("switched.png"))
        screen.click(popup.switch().box)
        wait_for("Enabled to flip back after a second tap", lambda: daemon.get("Enabled") == before)
        agrees(popup, daemon, "the popup to follow back")
        return f"Enabled {before} -> {not before} in {seconds:.2f} s, the popup {followed:.2f} s later; and back"

    report.check("a tap on the switch flips Enabled (a real pointer click)", tap_flips_enabled)

    def command_line_shown():
        daemon.set_property("Enabled", "b", "false")
        _, seconds = agrees(popup, daemon, "the popup to show tiltscrolld switched off")
        shown = popup.read()
        expect(not shown["switch"].checked and not shown["recentre"].enabled, "switch or Re-centre still on")
        path = screen.screenshot(shots("off.png"))
        daemon.set_property("Enabled", "b", "true")
        _, back = agrees(popup, daemon, "the popup to show tiltscrolld switched on")
        return f"off in {seconds:.2f} s ({path}), on again in {back:.2f} s"

    report.check("busctl set-property Enabled from a terminal shows in the popup", command_line_shown)

    def slider_writes():
        slider = popup.slider()
        screen.click(slider.box, where=(0.8, 0.5))
        moved, _ = wait_for("the slider to move", lambda: (s := popup.slider()).value > 0.6 and s)
        expected = factor_for_position(moved.value)
        _, seconds = wait_for(f"Sensitivity {expected}", lambda: abs(daemon.get("Sensitivity") - expected) < 1e-9)
        agrees(popup, daemon, "the popup to show the new sensitivity")
        return f"a tap at 80 %: slider {moved.value:.3f} -> Sensitivity {expected} in {seconds:.2f} s"

    report.check("a tap on the slider writes Sensitivity on the GNOME toggle's scale", slider_writes)

    def slider_follows():
        daemon.set_property("Sensitivity", "d", "0.5")
        _, seconds = agrees(popup, daemon, "the slider to follow Sensitivity 0.5")
        return f"0.5 from busctl: slider at {position_for_factor(0.5):.3f}, '0.50×' shown, in {seconds:.2f} s"

    report.check("busctl set-property Sensitivity moves the slider", slider_follows)

    def middle_writes_one():
        # The middle snaps to 1: a whole number, which must still go out as
        # the double the API takes.
        slider = popup.slider()
        screen.click(slider.box, where=(0.5, 0.5))
        _, seconds = wait_for("Sensitivity 1", lambda: daemon.get("Sensitivity") == 1.0)
        expect(not desktop.notified(), f"notified: {desktop.notified()}")
        return f"Sensitivity 0.5 -> 1 in {seconds:.2f} s"

    report.check("a tap at the slider's middle writes Sensitivity 1 (a whole number, as a double)", middle_writes_one)

    def recentre_calibrates():
        calibration = os.path.join(daemon.state, "calibration")
        before = os.stat(calibration).st_mtime_ns if os.path.exists(calibration) else None
        recentre = popup.recentre()
        expect(recentre.enabled, f"Re-centre is not enabled although Active is {daemon.get('Active')}")
        screen.click(recentre.box)
        _, seconds = wait_for(
            "the calibration file to be written",
            lambda: os.path.exists(calibration) and os.stat(calibration).st_mtime_ns != before,
        )
        return f"{calibration} written {seconds:.2f} s after the tap"

    report.check("Re-centre calls Calibrate (the daemon saves the neutral pose)", recentre_calibrates)

    def one_waiter():
        # After the changes so far, still one: each wait ends with its signal.
        waiters, _ = wait_for("one busctl wait", lambda: len(w := desktop.waiters()) == 1 and w)
        return f"pid {waiters[0]}"

    report.check("the applet waits for PropertiesChanged with one busctl, never more", one_waiter)

    def middle_click_switches():
        before = daemon.get("Enabled")
        screen.click(popup.icon().box, button=2)
        _, seconds = wait_for("Enabled to flip after a middle click", lambda: daemon.get("Enabled") != before)
        daemon.set_property("Enabled", "b", "true" if before else "false")
        agrees(popup, daemon, "the popup to follow")
        return f"Enabled {before} -> {not before} in {seconds:.2f} s"

    report.check("a middle click on the icon switches tilt scrolling", middle_click_switches)

    def stopping_marks():
        status = daemon.stop()
        expect(status == 0, f"tiltscrolld exited with status {status} on SIGTERM")
        def marked():
            shown = [(c.role, c.name) for c in desktop.controls() if c.showing and c.name]
            names = {name for _, name in shown}
            if PLACEHOLDER in names and "Tilt scrolling" not in names:
                return shown
            raise Failure(f"the popup shows {shown}")

        marked_with, seconds = wait_for("the popup to say tiltscrolld is not running", marked)
        path = screen.screenshot(shots("not-running.png"))
        expect(not desktop.waiters(), f"busctl still waits for a daemon that is gone: {desktop.waiters()}")
        started = daemon.start()
        _, back = agrees(popup, daemon, "the popup to show the daemon again")
        return f"marked {seconds:.2f} s after the daemon stopped ({path}); back {back:.2f} s after it was on the bus again ({started:.2f} s start)"

    report.check("stopping the daemon marks the applet not running; starting it brings the controls back", stopping_marks)

    def paused_shown():
        # No tablet-mode switch on the fixture: with When=tablet-mode the
        # daemon is switched on but not wanted, as "paused" (issue 24)
        # will be, a quiet state whose reason says why.
        daemon.stop()
        daemon.configure(when="tablet-mode")
        try:
            daemon.start()
            shown, seconds = agrees(popup, daemon, "the popup to show tiltscrolld switched on but not wanted")
            expect(daemon.get("Enabled") and daemon.get("State")[0] == "off", f"the daemon says {snapshot(daemon)}")
            expect(shown["switch"].checked and "Paused" in shown["labels"], f"the popup shows {shown['labels']}")
            path = screen.screenshot(shots("paused.png"))
        finally:
            daemon.stop()
            daemon.configure(when="always")
            daemon.start()
        agrees(popup, daemon, "the popup to show the daemon active again")
        return f"'Paused' and {daemon_reason(shown)!r}, the switch on, {seconds:.2f} s after the start; {path}"

    report.check("switched on but not wanted by [Activation]: the popup says Paused and why, the switch stays on", paused_shown)

    def polkit_missing():
        polkit.stop()
        try:
            before = daemon.get("Enabled")
            error, said = refused_words(daemon, not before, GRANTED[1])
            expect(error == "io.github.tiltscroll.TiltScroll1.Error.PolkitUnavailable", f"dbus-send was refused with {error}")
            count = len(desktop.notified())
            screen.click(popup.switch().box)
            note, seconds = wait_for("a notification", lambda: len(n := desktop.notified()) > count and n)
            title, body, app, icon = note[-1]
            expect(daemon.get("Enabled") == before, "Enabled changed although polkit could not be asked")
            expect(popup.switch().checked == before, "the switch moved although the daemon refused")
            expect(title == f"Not allowed to switch Tilt Scroll {'off' if before else 'on'}", f"title {title!r}")
            expect(same_words(body, said), f"body {body!r}, the daemon told dbus-send {said!r}")
            expect("polkit" in body, f"the body does not name polkit: {body!r}")
            path = screen.screenshot(shots("polkit-missing.png"))
        finally:
            polkit.start()
        return f"notified in {seconds:.2f} s: {title!r}: {body!r} (from {app!r}, icon {icon!r}); {path}"

    report.check("polkit not running: a tap is refused, the switch stays, a notification says why", polkit_missing)
    return desktop


def denied_session(report, processes, run, screen, system_bus, daemon, data_dirs, shots):
    desktop = Desktop(processes, os.path.join(run, "denied"), screen, system_bus, data_dirs, DENIED[1], language=TEST_LANGUAGE)
    popup = Popup(desktop, tr=translated)
    say(f"plasmoidviewer (as {DENIED[0]}, LANGUAGE={TEST_LANGUAGE}) on the accessibility bus in {desktop.start_viewer():.2f} s")

    def reads_translation():
        open_popup(screen, popup)
        shown, _ = agrees(popup, daemon, "the popup to agree with the daemon, in the test language")
        texts = popup_texts(desktop, shown)
        words = {translated(m) for m in template_messages()}
        stray = untranslatable(texts, daemon, words)
        expect(not stray, f"not from the {TEST_LANGUAGE} catalog: {stray}")
        path = screen.screenshot(shots("translated.png"))
        return f"{sorted(texts & words)}; {path}"

    report.check(f"the applet reads its catalog: in {TEST_LANGUAGE}, every word it shows is the translation", reads_translation)

    def refusal_explained():
        agrees(popup, daemon, "the popup to agree with the daemon")
        before = daemon.get("Enabled")
        error, said = refused_words(daemon, not before, DENIED[1])
        expect(error == "org.freedesktop.DBus.Error.AccessDenied", f"dbus-send was refused with {error}")
        count = len(desktop.notified())
        screen.click(popup.switch().box)
        note, seconds = wait_for("a notification of the refusal", lambda: len(n := desktop.notified()) > count and n)
        title, body, app, icon = note[-1]
        expect(daemon.get("Enabled") == before, "Enabled changed although the caller was refused")
        expect(popup.switch().checked == before, "the switch moved although the daemon refused")
        expect(title == translated(f"Not allowed to switch Tilt Scroll {'off' if before else 'on'}"), f"title {title!r}")
        expect(same_words(body, said), f"body {body!r}, the daemon told dbus-send {said!r}")
        path = screen.screenshot(shots("refused.png"))
        return f"notified in {seconds:.2f} s: {title!r}: {body!r} ({path})"

    report.check("a person polkit does not allow: the tap is refused, the switch stays, a notification says why", refusal_explained)
    return desktop


def main():
    keep = "--keep" in sys.argv[1:]
    run = tempfile.mkdtemp(prefix="tiltscroll-plasma.", dir="/tmp")
    os.chmod(run, 0o755)
    shots_dir = os.path.join(run, "screenshots")
    os.makedirs(shots_dir)

    def shots(name):
        return os.path.join(shots_dir, name)

    say(f"run directory: {run}; daemon: {DAEMON}")
    processes = Processes()
    report = Report()
    desktops = []
    stage = os.path.join(run, "stage")
    applet = os.path.join(stage, "usr", "share", "plasma", "plasmoids", APPLET_ID)
    try:
        def installed():
            # PLASMA is not given: make finds Plasma 6 here by itself.
            po = os.path.join(run, "po")
            write_test_translation(po)
            subprocess.run(
                ["make", "--no-print-directory", "-s", "-C", ROOT, "install", f"DESTDIR={stage}", "PREFIX=/usr",
                 f"BIN={DAEMON}", f"PLASMA_PO_DIR={po}"],
                check=True,
                stdout=subprocess.DEVNULL,
            )
            expect(os.path.isfile(os.path.join(applet, "metadata.json")), f"make install put no applet in {applet}")
            catalog = os.path.join(applet, "contents", "locale", TEST_LANGUAGE, "LC_MESSAGES", "plasma_applet_io.github.tiltscroll.mo")
            expect(os.path.isfile(catalog), f"make install compiled no {catalog}")
            with open(os.path.join(ROOT, "gnome-shell", "sensitivity.js"), "rb") as a, open(
                os.path.join(applet, "contents", "code", "sensitivity.mjs"), "rb"
            ) as b:
                expect(a.read() == b.read(), "the applet's sensitivity.js is not the GNOME toggle's")
            return f"{applet}, with gnome-shell/sensitivity.js as contents/code/sensitivity.mjs and the test's {TEST_LANGUAGE} catalog"

        if not report.check("make install (Plasma 6 found by itself) puts the applet in share/plasma/plasmoids", installed):
            raise Failure("nothing to show")

        def template_current():
            fresh = os.path.join(run, "fresh.pot")
            subprocess.run(
                ["make", "--no-print-directory", "-s", "-C", ROOT, "plasma-pot", f"PLASMA_POT={fresh}"],
                check=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            committed = os.path.join(ROOT, "plasma", "po", "plasma_applet_io.github.tiltscroll.pot")

            def messages(path):
                with open(path) as f:
                    return [line for line in f if not line.startswith('"POT-Creation-Date:')]

            expect(messages(fresh) == messages(committed), f"{committed} is out of date: run make plasma-pot")
            count = sum(1 for line in messages(committed) if line.startswith("msgid ")) - 1
            return f"{count} messages"

        report.check("the translation template holds every string the applet shows (make plasma-pot)", template_current)

        make_people_and_polkit(run)
        system_bus = Bus(
            processes,
            "system",
            f"  <include>{SYSTEM_BUS_POLICY}</include>\n  <include>{POLKIT_BUS_POLICY}</include>",
            run,
        )
        polkit = Polkit(processes, run, system_bus)
        say(f"polkitd on the private system bus in {polkit.start():.2f} s")
        daemon = Daemon(processes, run, system_bus, DAEMON)
        say(f"tiltscrolld on the private system bus in {daemon.start():.2f} s")
        screen = Screen(processes, run)
        data_dirs = f"{stage}/usr/share:/usr/share"

        desktop = granted_session(report, processes, run, screen, system_bus, polkit, daemon, data_dirs, shots)
        desktops.append(desktop)
        desktop.stop()
        desktop = denied_session(report, processes, run, screen, system_bus, daemon, data_dirs, shots)
        desktops.append(desktop)
        desktop.stop()

        def clean_log():
            problems = [line for d in desktops for line in qml_problems(d.log_lines())]
            expect(not problems, "QML said:\n  " + "\n  ".join(problems))
            return f"{', '.join(d.log_path for d in desktops)}: nothing but the desktop containment's own binding loop"

        report.check("the QML log has no error or warning of the applet", clean_log)

        def uninstalled():
            subprocess.run(
                ["make", "--no-print-directory", "-s", "-C", ROOT, "uninstall", f"DESTDIR={stage}", "PREFIX=/usr"],
                check=True,
                stdout=subprocess.DEVNULL,
            )
            expect(not os.path.exists(applet), f"make uninstall left {applet}")

        report.check("make uninstall removes the applet", uninstalled)
    except (Failure, GLib.Error, subprocess.CalledProcessError) as error:
        say(f"not ok - setting up: {error}")
        report.failed += 1
    finally:
        processes.stop_all()
        report.summary()
        if KEEP_SCREENSHOTS:
            os.makedirs(KEEP_SCREENSHOTS, exist_ok=True)
            for name in sorted(os.listdir(shots_dir)):
                shutil.copy(os.path.join(shots_dir, name), KEEP_SCREENSHOTS)
            say(f"screenshots copied to {KEEP_SCREENSHOTS}")
        if keep or report.failed:
            say(f"logs and screenshots kept in {run}")
        else:
            shutil.rmtree(run, ignore_errors=True)
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
