/*
 * tiltscrolld on the system bus, as the applet sees it: whether it is there,
 * its properties, and the three things a person may ask of it.
 *
 * Nothing here polls and nothing blocks. Presence comes from the bus's
 * NameOwnerChanged (DBusServiceWatcher). Properties are read with one
 * asynchronous GetAll when the daemon appears and after every change.
 * Changes are PropertiesChanged signals: Plasma 6.3's
 * org.kde.plasma.workspace.dbus can call methods but cannot receive a
 * signal (SignalWatcher and Properties came in 6.4), so the signal is waited
 * for by `busctl wait` (systemd), run by Plasma's executable data engine;
 * it exits with the signal's contents, which are applied at once, and is
 * started again. A change in the few milliseconds before the next busctl
 * listens is read by the GetAll that follows every signal when it came
 * before that call; one after it shows with the next change, or when the
 * popup next opens (which reads everything again).
 *
 * Writes are org.freedesktop.DBus.Properties.Set calls (Sensitivity's
 * through dbus-send, see setSensitivity); the properties change only when
 * the daemon says so, and a refusal comes back through refused().
 */

pragma ComponentBehavior: Bound

import QtQuick

import org.kde.plasma.plasma5support as P5Support
import org.kde.plasma.workspace.dbus as DBus

QtObject {
    id: service

    readonly property string busName: "io.github.tiltscroll.TiltScroll1"
    readonly property string objectPath: "/io/github/tiltscroll/TiltScroll1"
    readonly property string interfaceName: "io.github.tiltscroll.TiltScroll1"

    /** tiltscrolld is on the bus and its properties have been read. */
    readonly property bool present: presence.registered && known
    property bool known: false

    // The daemon's properties (tiltscrolld(8)), as last heard.
    property bool enabled: false
    property real sensitivity: 1
    property bool active: false
    property string stateName: ""
    property string stateReason: ""

    /**
     * A change was not made.
     * @param what - which change: "enable", "disable", "sensitivity", "calibrate"
     * @param errorName - the D-Bus error name ("" when there was none)
     * @param errorMessage - the daemon's own words
     */
    signal refused(string what, string errorName, string errorMessage)

    readonly property DBus.DBusServiceWatcher presence: DBus.DBusServiceWatcher {
        busType: DBus.BusType.System
        watchedService: service.busName
        onRegisteredChanged: service.follow()
    }

    // `busctl wait` exits with the first PropertiesChanged of the daemon's
    // object, printed as JSON; the engine reports it when the process ends.
    // The engine keeps a finished source's data for a while and hands it to
    // whoever connects to the same name again, so each wait gets a name of
    // its own (the number is a shell comment). exec: the shell becomes
    // busctl, so that ending the source (the daemon left, the applet went)
    // ends busctl and leaves no process waiting.
    readonly property string waitCommand: "exec busctl --system --json=short wait " + busName + " " + objectPath
        + " org.freedesktop.DBus.Properties PropertiesChanged # " + waits
    property int waits: 0
    // Set when busctl could not wait (missing, no system bus): the applet
    // then still shows what it reads, without following others' changes.
    property bool waitFailed: false

    readonly property P5Support.DataSource changeSignals: P5Support.DataSource {
        engine: "executable"
        onNewData: (source, data) => service.signalArrived(source, data)
    }

    // Sensitivity writes are coalesced: one in flight, the latest waiting.
    property bool sensitivityInFlight: false
    property var sensitivityWaiting: null

    /** Starts or stops following the daemon as it comes and goes. */
    function follow(): void {
        if (!presence.registered) {
            known = false;
            // Tried again when the daemon comes back (once each time).
            waitFailed = false;
            // Ends busctl: the engine drops a source nobody is connected to.
            changeSignals.disconnectSource(waitCommand);
            return;
        }
        if (!waitFailed && changeSignals.connectedSources.length === 0) {
            waits += 1;
            changeSignals.connectSource(waitCommand);
        }
        refresh();
    }

    /** Reads every property again (GetAll). */
    function refresh(): void {
        if (!presence.registered)
            return;
        const reply = DBus.SystemBus.asyncCall({
            service: busName,
            path: objectPath,
            iface: "org.freedesktop.DBus.Properties",
            member: "GetAll",
            arguments: [interfaceName],
            signature: "(s)",
        });
        reply.finished.connect(() => {
            // Gone meanwhile: the watcher says so too.
            if (reply.isError)
                return;
            const values = reply.value;
            for (const name in values)
                applyProperty(name, plain(values[name]));
            known = presence.registered;
        });
    }

    function signalArrived(source: string, data: var): void {
        changeSignals.disconnectSource(source);
        if (data["exit code"] !== 0) {
            waitFailed = true;
            console.warn("Tilt Scroll cannot follow tiltscrolld's changes:", source, "exited with status",
                data["exit code"], String(data.stderr).trim());
            return;
        }
        try {
            // {"type": "sa{sv}as", "data": [interface, {name: {"type": t, "data": value}}, invalidated]}
            const body = JSON.parse(data.stdout).data;
            if (body[0] === interfaceName) {
                for (const name in body[1])
                    applyProperty(name, body[1][name].data);
            }
        } catch (error) {
            console.warn("Tilt Scroll: cannot read busctl's output:", error);
        }
        follow();
    }

    /** The value a D-Bus reply decodes to, without the module's type wrappers. */
    function plain(value: var): var {
        if (Array.isArray(value))
            return value.map(plain);
        if (value !== null && typeof value === "object" && "value" in value)
            return value.value;
        return value;
    }

    function applyProperty(name: string, value: var): void {
        switch (name) {
        case "Enabled":
            enabled = value === true;
            break;
        case "Sensitivity":
            sensitivity = Number(value);
            break;
        case "Active":
            active = value === true;
            break;
        case "State":
            stateName = String(value[0]);
            stateReason = String(value[1]);
            break;
        }
    }

    function setEnabled(wanted: bool): void {
        writeProperty("Enabled", booleanVariant(wanted), wanted ? "enable" : "disable", null);
    }

    /**
     * Writes Sensitivity; while a write is under way only the latest value
     * asked for meanwhile follows it.
     *
     * Through dbus-send rather than the QML module: the module turns every
     * whole number into an int32 inside the variant (1, the default, 2 and
     * 4 are whole), and the daemon takes a double only. dbus-send is given
     * the type, and says the error's name when it fails.
     */
    function setSensitivity(factor: real): void {
        if (sensitivityInFlight) {
            sensitivityWaiting = factor;
            return;
        }
        sensitivityInFlight = true;
        commandNumber += 1;
        const command = "exec env LC_ALL=C dbus-send --system --print-reply --dest=" + busName + " " + objectPath
            + " org.freedesktop.DBus.Properties.Set string:" + interfaceName + " string:Sensitivity variant:double:"
            + Number(factor).toString() + " # " + commandNumber;
        commandDone[command] = (error, message) => {
            sensitivityInFlight = false;
            if (error !== "")
                refused("sensitivity", error, message);
            refresh();
            const waiting = sensitivityWaiting;
            sensitivityWaiting = null;
            if (waiting !== null && waiting !== sensitivity)
                setSensitivity(waiting);
        };
        commands.connectSource(command);
    }

    // Each command a source of its own (the number is a shell comment), as for the waits.
    property int commandNumber: 0
    property var commandDone: ({})
    readonly property P5Support.DataSource commands: P5Support.DataSource {
        engine: "executable"
        onNewData: (source, data) => service.commandFinished(source, data)
    }

    function commandFinished(source: string, data: var): void {
        commands.disconnectSource(source);
        const done = commandDone[source];
        delete commandDone[source];
        if (!done)
            return;
        if (data["exit code"] === 0) {
            done("", "");
            return;
        }
        // dbus-send: "Error org.freedesktop.DBus.Error.AccessDenied: the daemon's words"
        const said = String(data.stderr).trim();
        const match = said.match(/^Error ([^\s:]+): ([\s\S]*)$/);
        if (match)
            done(match[1], match[2]);
        else
            done("org.freedesktop.DBus.Error.Failed", said);
    }

    /** Calibrate(): the way the tablet is held now becomes neutral. */
    function calibrate(): void {
        send({
            service: busName,
            path: objectPath,
            iface: interfaceName,
            member: "Calibrate",
        }, "calibrate", null);
    }

    function writeProperty(name: string, value: var, what: string, done: var): void {
        send({
            service: busName,
            path: objectPath,
            iface: "org.freedesktop.DBus.Properties",
            member: "Set",
            arguments: [interfaceName, name, value],
            signature: "(ssv)",
        }, what, done);
    }

    // Set's third argument is a variant: the type annotation makes one.
    function booleanVariant(value: bool): DBus.variant {
        return value;
    }

    function send(message: var, what: string, done: var): void {
        const reply = DBus.SystemBus.asyncCall(message);
        reply.finished.connect(() => {
            if (done)
                done();
            if (reply.isError)
                refused(what, reply.error.name, reply.error.message);
            // Our own change shows through PropertiesChanged; a refusal
            // leaves the controls where the daemon is.
            refresh();
        });
    }

    Component.onCompleted: follow()
}
