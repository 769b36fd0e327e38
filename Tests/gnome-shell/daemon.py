"""tiltscrolld as the harness runs it: the daemon on the private system bus, and its command line."""

import os
import subprocess

from gi.repository import GLib

from buses import call, has_owner, tail
from common import BUS_NAME, FIXTURE, INTERFACE, OBJECT_PATH, PROPERTIES, Failure, wait_for

DAEMON = os.environ["TILTSCROLLD"]


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

    def command(self, verb, user=None):
        """The command line's `tiltscrollctl VERB` (enable, disable, toggle), as
        a person types it in a terminal: the client built beside the daemon."""
        argv = [os.path.join(os.path.dirname(DAEMON), "tiltscrollctl"), verb]
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
