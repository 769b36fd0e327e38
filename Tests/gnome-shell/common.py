"""What every part of the harness shares: names, waiting, failing."""

import os
import time

from gi.repository import GLib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

UUID = "tiltscroll@tiltscroll.github.io"
HELPER_UUID = "unsafe-mode-for-tests@tiltscroll.github.io"
BUS_NAME = "io.github.tiltscroll.TiltScroll1"
OBJECT_PATH = "/io/github/tiltscroll/TiltScroll1"
INTERFACE = BUS_NAME
PROPERTIES = "org.freedesktop.DBus.Properties"
POLICY = os.path.join(ROOT, "dbus", BUS_NAME + ".conf")
SYSTEM_BUS_POLICY = os.path.join(ROOT, "Tests", "dbus", "system-bus-policy.conf")
FIXTURE = os.path.join(ROOT, "Tests", "umockdev", "fixtures", "kxcjk-1013.umockdev")


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
