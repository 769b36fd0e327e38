"""Runs as the main process of tiltscroll-probe.service, a copy of the
installed tiltscrolld.service that differs only in ExecStart=, so inside the
same sandbox, and checks what the sandbox lets a process do: every access the
daemon needs works, and a sample of what it must not do fails with the
expected error. The real daemon in the real unit shows the first half
(guest-test); only a probe can show the second. Prints "ok - ..." /
"not ok - ..." lines and "N failed"."""

import errno
import glob
import os
import socket
import time

failures = 0


def check(name, condition, detail=""):
    global failures
    if not condition:
        failures += 1
    print(("ok - " if condition else "not ok - ") + name + ("" if condition or not detail else ": " + str(detail)), flush=True)


def notify(message):
    path = os.environ["NOTIFY_SOCKET"]
    if path.startswith("@"):
        path = "\0" + path[1:]
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s:
        s.connect(path)
        s.send(message.encode())


def write_error(path, data):
    """0 if writing data to path works, else the errno."""
    try:
        with open(path, "w") as f:
            f.write(data)
        return 0
    except OSError as e:
        return e.errno


def read(path):
    with open(path) as f:
        return f.read().strip()


def open_error(path, flags):
    try:
        os.close(os.open(path, flags))
        return 0
    except OSError as e:
        return e.errno


def name(code):
    return errno.errorcode.get(code, "success" if code == 0 else str(code))


# --- Who we are. ---
status = dict(line.split(":\t", 1) for line in read("/proc/self/status").splitlines() if ":\t" in line)
check("runs as root", os.getuid() == 0, os.getuid())
check("has no effective capabilities", status["CapEff"].strip() == "0000000000000000", status["CapEff"])
check("has an empty bounding set", status["CapBnd"].strip() == "0000000000000000", status["CapBnd"])
check("cannot gain privileges (NoNewPrivs)", status["NoNewPrivs"].strip() == "1")
check("runs under a seccomp filter", status["Seccomp"].strip() == "2")

# --- Started as the unit says (Type=notify): ready at once. ---
check("NOTIFY_SOCKET is set", "NOTIFY_SOCKET" in os.environ)
notify("READY=1\nSTATUS=probing the sandbox")
check("STATE_DIRECTORY is /var/lib/tiltscroll", os.environ.get("STATE_DIRECTORY") == "/var/lib/tiltscroll")
check("RUNTIME_DIRECTORY is /run/tiltscroll", os.environ.get("RUNTIME_DIRECTORY") == "/run/tiltscroll")

# --- The accelerometer's sysfs attributes: writable. ---
devices = [d for d in glob.glob("/sys/bus/iio/devices/iio:device*") if os.path.exists(d + "/in_accel_x_raw")]
check("the accelerometer is visible", len(devices) == 1, devices)
device = os.path.realpath(devices[0]) if devices else "/nonexistent"
check("it lives under /sys/devices", device.startswith("/sys/devices/"), device)
frequency = device + "/in_accel_sampling_frequency"
original = read(frequency)
code = write_error(frequency, "50")
check("the sampling frequency can be written", code == 0, name(code))
check("the sensor took it", float(read(frequency)) == 50.0, read(frequency))
code = write_error(frequency, original)
check("the original frequency can be restored", code == 0 and read(frequency) == original, name(code))
check("buffer/length can be written", write_error(device + "/buffer/length", "8") == 0)
check("scan_elements can be written", write_error(device + "/scan_elements/in_accel_x_en", "0") == 0)

# --- The rest of /sys and /proc/sys: read-only. Each write puts back the
# current value, so nothing changes even if the sandbox were open. ---
for path in ["/sys/devices/system/clocksource/clocksource0/current_clocksource",
             "/sys/module/printk/parameters/time", "/proc/sys/kernel/printk_ratelimit",
             "/sys/kernel/uevent_helper"]:
    if os.path.exists(path):
        code = write_error(path, read(path) + "\n")
        check("%s is read-only" % path, code == errno.EROFS, name(code))

# --- Devices: exactly the three kinds. ---
code = open_error("/dev/uinput", os.O_RDWR)
check("/dev/uinput opens read-write", code == 0, name(code))
node = "/dev/" + os.path.basename(device)
code = open_error(node, os.O_RDONLY)
check("%s opens read-only" % node, code == 0, name(code))
code = open_error(node, os.O_RDWR)
check("%s does not open read-write" % node, code == errno.EPERM, name(code))
events = sorted(glob.glob("/dev/input/event*"))
check("an input event device exists", len(events) > 0)
if events:
    code = open_error(events[0], os.O_RDONLY)
    check("%s opens read-only" % events[0], code == 0, name(code))
for path in ["/dev/kmsg", "/dev/ttyS0", "/dev/mem", "/dev/i2c-0"]:
    if os.path.exists(path):
        code = open_error(path, os.O_RDONLY)
        # EPERM from the device cgroup; EACCES where a Protect*= setting
        # also hides the node (ProtectKernelLogs= for /dev/kmsg).
        check("%s is refused" % path, code in (errno.EPERM, errno.EACCES), name(code))

# --- udev's device events reach the daemon (why PrivateNetwork= stays off). ---
monitor = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 15)  # NETLINK_KOBJECT_UEVENT
monitor.bind((0, 2))  # the group udevd multicasts to after its rules ran
monitor.settimeout(10)
code = write_error(device + "/uevent", "change")
check("a change event can be requested", code == 0, name(code))
heard = b""
try:
    deadline = time.time() + 10
    while time.time() < deadline and b"ACTION=change" not in heard:
        heard = monitor.recv(65536)
except socket.timeout:
    pass
check("udevd's change event is heard in the sandbox", b"ACTION=change" in heard and os.path.basename(device).encode() in heard)
check("it carries our rule's SYSTEMD_WANTS", b"tiltscrolld.service" in heard)

# --- Files: state and runtime directories writable, the rest read-only. ---
check("the state directory is writable", write_error("/var/lib/tiltscroll/probe", "x") == 0)
check("the runtime directory is writable", write_error("/run/tiltscroll/tiltscrolld.pid", str(os.getpid())) == 0)
code = write_error("/etc/tiltscroll.conf", "")
check("/etc is read-only", code == errno.EROFS, name(code))
code = write_error("/usr/local/bin/tiltscrolld", "")
check("/usr is read-only", code == errno.EROFS, name(code))
code = open_error("/root", os.O_RDONLY)
check("/root is hidden", code in (errno.EACCES, errno.ENOENT, errno.EPERM), name(code))

# --- Network: no IP. ---
try:
    socket.socket(socket.AF_INET, socket.SOCK_DGRAM).close()
    check("IP sockets are refused", False)
except OSError as e:
    check("IP sockets are refused", e.errno == errno.EAFNOSUPPORT, name(e.errno))

notify("STOPPING=1")
print("%d failed" % failures, flush=True)
