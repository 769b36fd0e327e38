/*
 * Tilt Scroll in Plasma's system tray: tiltscrolld's switch, its state and
 * why, Re-centre, and the sensitivity, beside Plasma's other hardware
 * applets. The tray loads the applet only while tiltscrolld is on the system
 * bus (X-Plasma-DBusActivationService in metadata.json); elsewhere (a panel,
 * the desktop) it hides itself and its popup says the daemon is not running.
 *
 * The controls show what the daemon says and nothing else: a tap asks for
 * a change, the control moves when the daemon's PropertiesChanged arrives,
 * and a refusal leaves it as it was and says why in a notification.
 */

pragma ComponentBehavior: Bound

import QtQuick

import org.kde.kirigami as Kirigami
import org.kde.notification
import org.kde.plasma.core as PlasmaCore
import org.kde.plasma.plasmoid

PlasmoidItem {
    id: root

    readonly property TiltScrollService service: TiltScrollService {
        onRefused: (what, errorName, errorMessage) => root.explainRefusal(what, errorName, errorMessage)
    }

    // Switched on but quiet: [Activation] does not want it now (State
    // "off" while Enabled), or, from issue 24 on, "paused" because nobody
    // can be reading (locked, idle, lid closed, ...). The reason says which.
    readonly property bool paused: service.enabled && (service.stateName === "off" || service.stateName === "paused")

    /** The state in a word or two; the reason line says more. */
    readonly property string stateTitle: {
        if (!service.present)
            return i18nc("@info:status", "Not running");
        if (paused)
            return i18nc("@info:status tilt scrolling is switched on but quiet", "Paused");
        switch (service.stateName) {
        case "off":
            return i18nc("@info:status", "Off");
        case "waiting-for-sensor":
            return i18nc("@info:status", "No sensor");
        case "resting":
            return i18nc("@info:status the tablet lies still, not in a hand", "Resting");
        case "touched":
            return i18nc("@info:status a finger or pen is on the screen", "Touched");
        default:
            // "active", "following" (a hand holding still, which is most of
            // reading: it stays Active so that the line does not flicker),
            // and any name a newer daemon adds, as the API asks.
            return i18nc("@info:status", "Active");
        }
    }

    switchWidth: Kirigami.Units.gridUnit * 12
    switchHeight: Kirigami.Units.gridUnit * 10

    Plasmoid.icon: "input-tablet"
    Plasmoid.status: {
        if (!service.present)
            return PlasmaCore.Types.HiddenStatus;
        return service.active ? PlasmaCore.Types.ActiveStatus : PlasmaCore.Types.PassiveStatus;
    }

    toolTipMainText: i18nc("@title", "Tilt Scroll")
    toolTipSubText: service.present && service.stateReason !== "" ? stateTitle + "\n" + service.stateReason : stateTitle

    Plasmoid.contextualActions: [
        PlasmaCore.Action {
            text: i18nc("@action make the way the tablet is held now the neutral pose", "Re-centre")
            icon.name: "crosshairs"
            enabled: root.service.active
            onTriggered: root.service.calibrate()
        }
    ]

    compactRepresentation: CompactRepresentation {
        service: root.service
        expanded: root.expanded
        onExpandRequested: expand => root.expanded = expand
        onToggleRequested: root.service.setEnabled(!root.service.enabled)
    }

    fullRepresentation: FullRepresentation {
        service: root.service
        stateTitle: root.stateTitle
    }

    // What the person sees may be older than a change that came while
    // busctl was starting again: opening the popup reads everything afresh.
    onExpandedChanged: expanded => {
        if (expanded)
            service.refresh();
    }

    Component {
        id: refusalNotification

        Notification {
            componentName: "plasma_workspace"
            eventId: "notification"
            iconName: "input-tablet"
            autoDelete: true
        }
    }

    /**
     * Tells the person why a change was not made: a title that says what did
     * not happen and whether it was a refusal, and the daemon's own words
     * (who was not authorized for what, polkit not running, a value out of
     * range) or, where it gave none, a sentence for the error.
     */
    function explainRefusal(what: string, errorName: string, errorMessage: string): void {
        const refusal = [
            "org.freedesktop.DBus.Error.AccessDenied",
            "org.freedesktop.DBus.Error.AuthFailed",
            "org.freedesktop.DBus.Error.InteractiveAuthorizationRequired",
            "io.github.tiltscroll.TiltScroll1.Error.PolkitUnavailable",
        ].includes(errorName);
        let title;
        switch (what) {
        case "enable":
            title = refusal ? i18nc("@title:notification", "Not allowed to switch Tilt Scroll on")
                            : i18nc("@title:notification", "Could not switch Tilt Scroll on");
            break;
        case "disable":
            title = refusal ? i18nc("@title:notification", "Not allowed to switch Tilt Scroll off")
                            : i18nc("@title:notification", "Could not switch Tilt Scroll off");
            break;
        case "calibrate":
            title = refusal ? i18nc("@title:notification", "Not allowed to re-centre Tilt Scroll")
                            : i18nc("@title:notification", "Could not re-centre Tilt Scroll");
            break;
        default:
            title = refusal ? i18nc("@title:notification", "Not allowed to change the sensitivity of Tilt Scroll")
                            : i18nc("@title:notification", "Could not change the sensitivity of Tilt Scroll");
        }
        let text = errorMessage.trim();
        if (text === "") {
            switch (errorName) {
            case "io.github.tiltscroll.TiltScroll1.Error.NotActive":
                text = i18nc("@info", "Tilt scrolling is not active.");
                break;
            case "org.freedesktop.DBus.Error.ServiceUnknown":
            case "org.freedesktop.DBus.Error.NameHasNoOwner":
                text = i18nc("@info", "tiltscrolld is not running.");
                break;
            case "org.freedesktop.DBus.Error.NoReply":
            case "org.freedesktop.DBus.Error.Timeout":
                text = i18nc("@info", "tiltscrolld did not answer.");
                break;
            default:
                text = i18nc("@info", "tiltscrolld gave no reason.");
            }
        } else {
            text = text.charAt(0).toUpperCase() + text.slice(1);
        }
        const notification = refusalNotification.createObject(root, { title, text });
        notification.sendEvent();
    }
}
