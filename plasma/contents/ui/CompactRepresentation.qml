/*
 * The icon in the tray: the project's own symbolic icon, drawn in the
 * panel's text colour, faded while scrolling is not active. A tap opens the
 * popup; a middle click switches tilt scrolling, as the tray's other
 * switches do (the volume applet mutes, Night Light inhibits).
 */

pragma ComponentBehavior: Bound

import QtQuick

import org.kde.kirigami as Kirigami
import org.kde.plasma.plasmoid

MouseArea {
    id: compact

    required property TiltScrollService service
    /** Whether the popup is open (PlasmoidItem.expanded). */
    required property bool expanded

    /** The popup should open, or close. */
    signal expandRequested(bool expand)
    /** Tilt scrolling should be switched on or off. */
    signal toggleRequested

    hoverEnabled: true
    acceptedButtons: Qt.LeftButton | Qt.MiddleButton
    activeFocusOnTab: true

    Accessible.role: Accessible.Button
    Accessible.name: Plasmoid.title
    Accessible.description: {
        if (!service.present)
            return "";
        return service.enabled ? i18nc("@info:status", "Tilt scrolling is on") : i18nc("@info:status", "Tilt scrolling is off");
    }

    // A press outside an open popup closes it before the click arrives:
    // the click must not open it again.
    property bool expandedOnPress: false
    onPressed: mouse => expandedOnPress = expanded
    onClicked: mouse => {
        if (mouse.button === Qt.MiddleButton)
            toggleRequested();
        else
            expandRequested(!expandedOnPress);
    }
    Keys.onPressed: event => {
        if (event.key === Qt.Key_Space || event.key === Qt.Key_Enter || event.key === Qt.Key_Return || event.key === Qt.Key_Select) {
            expandRequested(!expanded);
            event.accepted = true;
        }
    }

    Kirigami.Icon {
        anchors.fill: parent
        source: Qt.resolvedUrl("../icons/tiltscroll-symbolic.svg")
        isMask: true
        color: Kirigami.Theme.textColor
        active: compact.containsMouse
        opacity: compact.service.active ? 1 : 0.6
    }
}
