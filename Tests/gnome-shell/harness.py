#!/usr/bin/python3
"""The Tilt Scroll extension in a real, headless GNOME Shell, driving the
real tiltscrolld over a private system bus: GNOME Shell 43 on Debian 12
(./run) and 48 in a Debian 13 root (./run-48), each with the extension's
build for it. ./run and ./run-48 check that the programs exist first;
README.md in this directory says what each check proves and how the pieces
are set up.
"""

import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

from gi.repository import GLib

from buses import SYSTEM_POLICY, Bus, Processes, resident_mib
from common import ROOT, POLICY, UUID, HELPER_UUID, Failure, say, wait_for
from daemon import DAEMON, Daemon
from pixels import save_readme_picture, shows_menu, shows_toggle
from shell import FLAVOUR, SHELL_MAJOR, Shell

UNPRIVILEGED_USER = 65534  # nobody: no polkitd on the private bus refuses it

# GNOME Shell's ExtensionState and ExtensionType (misc/extensionUtils.js;
# 45 renamed ENABLED and DISABLED to ACTIVE and INACTIVE, same values).
ENABLED, DISABLED = 1, 2
SYSTEM, PER_USER = 1, 2

# The menu's subtitle for each State name (gnome-shell/toggle.js).
SUBTITLES = {
    "off": "Off",
    "waiting-for-sensor": "No sensor",
    "active": "Active",
    "resting": "Resting",
    "touched": "Touched",
    "following": "Active",
    "paused": "Paused",
}


def expected_subtitle(name, enabled):
    """gnome-shell/toggle.js subtitleFor: the header's subtitle for State."""
    if name == "off" and enabled:
        return "Paused"
    return SUBTITLES.get(name, SUBTITLES["active"])


def sensitivity_for_position(position):
    """gnome-shell/sensitivity.js factorForPosition, for the expected value."""
    position = min(max(position, 0.0), 1.0)
    factor = 0.25 * 16**position
    if 1 / 1.04 < factor < 1.04:
        return 1.0
    return min(max(round(factor * 100) / 100, 0.25), 4.0)


def position_for_sensitivity(factor):
    return min(max(math.log(factor / 0.25) / math.log(16), 0.0), 1.0)


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
        # 44 and later: the toggle says the state too.
        and state["toggleSubtitle"] == (state["subtitle"] if FLAVOUR >= 45 else None)
    )
    if not agrees:
        keys = ("checked", "subtitle", "toggleSubtitle", "reason", "calibrateSensitive", "sliderValue")
        shown = {k: state[k] for k in keys}
        raise Failure(f"the toggle shows {shown}, the daemon says {before}")
    return state


def privileged_session(report, processes, run, system_bus, daemon, data_dirs, install_dir):
    shell = Shell(processes, os.path.join(run, "shell-root"), system_bus, data_dirs)
    started = shell.start()
    say(f"GNOME Shell {SHELL_MAJOR} (as root) started in {started:.2f} s")

    def loads():
        info = shell.extension()
        expect(info is not None, f"{UUID} is not known to the shell")
        expect(info["state"] == ENABLED, f"state {info['state']}, error {info['error']!r}")
        expect(info["type"] == SYSTEM, f"type {info['type']}: not a system-wide extension")
        expect(info["path"] == os.path.join(install_dir, UUID), f"loaded from {info['path']}")
        expect(shell.extension(HELPER_UUID)["state"] == ENABLED, "the unsafe-mode helper is not enabled")
        with open(os.path.join(install_dir, UUID, "metadata.json")) as f:
            versions = json.load(f)["shell-version"]
        expect(str(SHELL_MAJOR) in versions, f"make install chose the build for {versions}")
        return f"enabled from {info['path']}, the build for GNOME Shell {', '.join(versions)}"

    if not report.check("the extension loads system-wide, enabled, without error", loads):
        return shell

    def mirrors_enabled():
        state, seconds = wait_for("the toggle", lambda: (s := shell.toggle())["found"] and s["visible"] and s)
        daemon_enabled = enabled(daemon)
        expect(state["checked"] == daemon_enabled, f"checked {state['checked']}, Enabled {daemon_enabled}")
        expect(
            state["autoRotateIndex"] >= 0 and state["gridIndex"] == state["autoRotateIndex"] + 1,
            f"grid position {state['gridIndex']}, Auto Rotate at {state['autoRotateIndex']}",
        )
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
        result = daemon.command("disable")
        expect(result.returncode == 0, f"{' '.join(result.args)}: exit {result.returncode}: {result.stderr.strip()}")
        _, seconds = wait_for(
            "the toggle to show the daemon disabled", lambda: (s := shell.toggle())["checked"] is False and s
        )
        wait_for("the menu to agree with the disabled daemon", lambda: menu_agrees(shell, daemon))
        name = daemon.get("State")[0]
        result = daemon.command("enable")
        expect(result.returncode == 0, f"{' '.join(result.args)}: exit {result.returncode}: {result.stderr.strip()}")
        _, back = wait_for("the toggle to show the daemon enabled", lambda: shell.toggle()["checked"] is True)
        return f"off in {seconds:.2f} s (State {name!r}), on again in {back:.2f} s"

    report.check("tiltscrollctl disable and enable from a terminal are reflected", command_line_reflected)

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
        return (
            f"open in {seconds:.2f} s: {state['subtitle']!r}, {state['reason']!r}, "
            f"Re-centre {'sensitive' if state['calibrateSensitive'] else 'insensitive'}, slider {state['sliderValue']:.3f}; "
            f"{path}: {shown}"
        )

    report.check("the menu shows State, Re-centre (sensitive when Active) and the sensitivity", menu_shows_state)

    def every_state_named():
        # The daemon under test shows a few of the names; the extension's own
        # subtitleFor() answers for all of them, and for one it does not know.
        names = [*SUBTITLES, "a-state-of-a-newer-daemon"]
        shown = shell.eval(
            shell.module("toggle")
            + f"return {json.dumps(names)}.map(n => [module.subtitleFor(n, true), module.subtitleFor(n, false)]);"
        )
        expected = [[expected_subtitle(n, True), expected_subtitle(n, False)] for n in names]
        wrong = {n: s for n, s, e in zip(names, shown, expected) if s != e}
        expect(not wrong, f"subtitles (switched on, off) {wrong}, expected {dict(zip(names, expected))}")
        return f"paused (on): {shown[names.index('paused')][0]!r}; an unknown name: {shown[-1][0]!r}"

    report.check("each State name has its subtitle, paused (switched on, quiet) included", every_state_named)

    def slider_writes_sensitivity():
        state = shell.toggle()
        expect(state["sliderBox"] is not None, "no slider in the menu")
        shell.click(state["sliderBox"], where=(0.8, 0.5))
        moved, _ = wait_for("the slider to move", lambda: (s := shell.toggle())["sliderValue"] > 0.6 and s)
        expected = sensitivity_for_position(moved["sliderValue"])
        _, seconds = wait_for(f"Sensitivity {expected}", lambda: abs(daemon.get("Sensitivity") - expected) < 1e-9)
        daemon.set("Sensitivity", GLib.Variant("d", 0.5))
        _, back = wait_for(
            "the slider to follow Sensitivity 0.5",
            lambda: abs(shell.toggle()["sliderValue"] - position_for_sensitivity(0.5)) < 1e-6,
        )
        return f"slider {moved['sliderValue']:.3f} -> Sensitivity {expected} in {seconds:.2f} s; 0.5 from the bus shown in {back:.2f} s"

    report.check("the slider writes Sensitivity and follows it", slider_writes_sensitivity)

    def recentre_calibrates():
        calibration = os.path.join(daemon.state, "calibration")
        before = os.stat(calibration).st_mtime_ns if os.path.exists(calibration) else None
        state = shell.toggle()
        expect(state["calibrateSensitive"], "Re-centre is not sensitive")
        shell.click(state["calibrateBox"])
        _, seconds = wait_for(
            "the calibration file to be written",
            lambda: os.path.exists(calibration) and os.stat(calibration).st_mtime_ns != before,
        )
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
        counts = (
            "return {grid: qs.menu._grid.get_n_children(), overlay: qs.menu._overlay.get_n_children(),"
            " indicators: qs._indicators.get_n_children(), sources: Main.messageTray.getSources().length,"
            " anywhere: findToggle(global.stage) !== null};"
        )
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


def unprivileged_session(report, processes, run, system_bus, daemon, extension_zip):
    # The system's data directories only: this user's extension is the zip's.
    shell = Shell(
        processes,
        os.path.join(run, "shell-user"),
        system_bus,
        "/usr/share",
        user=UNPRIVILEGED_USER,
        extension_zip=extension_zip,
    )
    started = shell.start()
    say(f"GNOME Shell {SHELL_MAJOR} (as uid {UNPRIVILEGED_USER}) started in {started:.2f} s")

    def zip_loads():
        info = shell.extension()
        expect(info is not None, f"{UUID} is not known to the shell")
        expect(info["state"] == ENABLED, f"state {info['state']}, error {info['error']!r}")
        expect(info["type"] == PER_USER, f"type {info['type']}: not the user's own extension")
        path = os.path.join(shell.data_home, "gnome-shell", "extensions", UUID)
        expect(info["path"] == path, f"loaded from {info['path']}, not {path}")
        return f"enabled from {info['path']}"

    report.check("the zip for extensions.gnome.org, unpacked as the user's own extension, loads", zip_loads)

    def refusal_explained():
        state, _ = wait_for("the toggle", lambda: (s := shell.toggle())["found"] and s["visible"] and s)
        before = enabled(daemon)
        expect(state["checked"] == before, "the toggle does not mirror Enabled")
        refused = daemon.command("toggle", user=UNPRIVILEGED_USER)
        expect(refused.returncode != 0, f"{' '.join(refused.args)} as an unprivileged user was not refused")
        shell.open_quick_settings()
        state, _ = wait_for("Quick Settings open with the toggle laid out", shell.settled)
        shell.click(state["labelBox"])
        note, seconds = wait_for(
            "a notification of the refusal",
            lambda: shell.eval(
                "const s = Main.messageTray.getSources().find(s => s.title === 'Tilt Scroll');"
                "const n = s?.notifications[0];"
                # 46 and later: body; up to 45: bannerBodyText.
                "return n ? {title: n.title, body: n.body ?? n.bannerBodyText} : null;"
            ),
        )
        expect(enabled(daemon) == before, "Enabled changed although the caller was refused")
        expect(shell.toggle()["checked"] == before, "the toggle changed although the daemon refused")
        expect(
            note["title"] == f"Not allowed to switch Tilt Scroll {'off' if before else 'on'}",
            f"notification title {note['title']!r}",
        )
        expect(
            note["body"] != "" and "GDBus.Error" not in note["body"],
            f"the body should be the daemon's reason, without the D-Bus error name: {note['body']!r}",
        )
        shell.screenshot("refused.png")
        return f"notified in {seconds:.2f} s: {note['title']!r}: {note['body']!r} (the command line said: {refused.stderr.strip()!r})"

    report.check(
        "as an ordinary user without polkit: the tap is refused, the toggle stays, a notification says why",
        refusal_explained,
    )
    return shell


LEGACY_IMPORTS = os.path.join(ROOT, "gnome-shell", "legacy-imports.sed")

# What the shared modules may say, and what 43 gets for it.
LEGACY_TRANSLATIONS = {
    "import Gio from 'gi://Gio';": "const Gio = imports.gi.Gio;",
    "import * as Main from 'resource:///org/gnome/shell/ui/main.js';": "const Main = imports.ui.main;",
    "import {Slider} from 'resource:///org/gnome/shell/ui/slider.js';": "const {Slider} = imports.ui.slider;",
    "import * as Config from 'resource:///org/gnome/shell/misc/config.js';": "const Config = imports.misc.config;",
    "import {a, b} from './errors.js';": "const {a, b} = imports.misc.extensionUtils.getCurrentExtension().imports.errors;",
    "import * as S from './sensitivity.js';": "const S = imports.misc.extensionUtils.getCurrentExtension().imports.sensitivity;",
    "export const X = 1;": "var X = 1;",
    "export function f(a) {": "function f(a) {",
}

# Forms it has no translation for: each must stop the install.
LEGACY_REFUSALS = [
    "import Foo, {x} from './a.js';",
    "import {a as b} from './errors.js';",
    "import * as Status from 'resource:///org/gnome/shell/ui/status/volume.js';",
    "import {\n    a,\n} from './errors.js';",
    "export default class X {}",
    "export class X {}",
    "export {x};",
    "export let x = 1;",
]


def legacy_imports():
    """gnome-shell/legacy-imports.sed, which makes the 43 build's modules."""

    def translate(text):
        return subprocess.run(["sed", "-E", "-f", LEGACY_IMPORTS], input=text, capture_output=True, text=True)

    for es, legacy in LEGACY_TRANSLATIONS.items():
        result = translate(es + "\n")
        expect(result.returncode == 0, f"{es!r} not translated: {result.stderr.strip()}")
        got = [line for line in result.stdout.splitlines() if not line.startswith("//")]
        expect(got == ["'use strict';", legacy], f"{es!r} became {got}, not {legacy!r}")
    for refused in LEGACY_REFUSALS:
        result = translate("const before = 1;\n" + refused + "\n")
        expect(result.returncode == 1, f"{refused!r} was let through as {result.stdout!r}")
    return f"{len(LEGACY_TRANSLATIONS)} forms translated, {len(LEGACY_REFUSALS)} others refused (exit 1)"


def main():
    keep = "--keep" in sys.argv[1:]
    run = tempfile.mkdtemp(prefix="tiltscroll-gnome.", dir="/tmp")
    os.chmod(run, 0o755)
    say(f"run directory: {run}; daemon: {DAEMON}; GNOME Shell {SHELL_MAJOR}, the extension's {FLAVOUR} build")
    processes = Processes()
    report = Report()
    shells = []
    try:
        report.check("legacy-imports.sed makes 43's modules of the shared ones and refuses any other form", legacy_imports)
        expect(
            os.path.isfile(POLICY), f"{POLICY} is missing: the daemon's D-Bus policy (issue 12) is needed on the bus"
        )
        # The extension as `make install` puts it, system-wide in a staging root.
        stage = os.path.join(run, "stage")
        subprocess.run(
            [
                "make",
                "--no-print-directory",
                "-s",
                "-C",
                ROOT,
                "install",
                f"DESTDIR={stage}",
                "PREFIX=/usr",
                f"BIN={DAEMON}",
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        data_dirs = f"{stage}/usr/share:/usr/share"
        install_dir = f"{stage}/usr/share/gnome-shell/extensions"
        expect(
            os.path.isfile(os.path.join(install_dir, UUID, "metadata.json")),
            f"make install put no extension in {install_dir}",
        )
        # The zip for extensions.gnome.org of the same build, for the second shell.
        zip_stage = os.path.join(run, "zip")
        subprocess.run(
            [
                "make",
                "--no-print-directory",
                "-s",
                "-C",
                ROOT,
                "gnome-extension-zip",
                f"GNOME_EXTENSION_FLAVOUR={FLAVOUR}",
                f"GNOME_EXTENSION_ZIP_STAGE={zip_stage}",
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        extension_zip = os.path.join(zip_stage, f"{UUID}.shell-extension.zip")

        system_bus = Bus(
            processes, "system", SYSTEM_POLICY, os.path.join(run, "system_bus_socket"), os.path.join(run, "system.conf")
        )
        daemon = Daemon(processes, run, system_bus)
        say(f"tiltscrolld on the private system bus in {daemon.start():.2f} s")

        # One shell at a time: each is a few hundred MiB and most of the CPU.
        for session in (
            lambda: privileged_session(report, processes, run, system_bus, daemon, data_dirs, install_dir),
            lambda: unprivileged_session(report, processes, run, system_bus, daemon, extension_zip),
        ):
            shell = session()
            shells.append(shell)
            say(f"GNOME Shell as {shell.user or 'root'}: {resident_mib(shell.process.pid)} MiB resident at the end")
            processes.stop(shell.process)
            processes.stop(shell.session_bus.process)

        def clean_logs():
            problems = [line for shell in shells for line in shell.log_problems()]
            expect(not problems, "the shell logged:\n  " + "\n  ".join(problems))
            return (
                f"{', '.join(s.log_path for s in shells)}: no JavaScript error or warning, nothing about the extension"
            )

        report.check("the shells' logs have no error", clean_logs)

        def uninstall():
            subprocess.run(
                ["make", "--no-print-directory", "-s", "-C", ROOT, "uninstall", f"DESTDIR={stage}", "PREFIX=/usr"],
                check=True,
                stdout=subprocess.DEVNULL,
            )
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
