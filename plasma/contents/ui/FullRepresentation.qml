/*
 * The popup: a heading with the switch, the state and its reason,
 * Re-centre, and the sensitivity slider; or, while tiltscrolld is not on the
 * bus, a message saying so. Rows are at least two grid units tall (more in
 * tablet mode) so that a finger finds them, as in Plasma's own popups.
 *
 * The slider uses the GNOME toggle's scale, from the very same file
 * (gnome-shell/sensitivity.js, an ECMAScript module, linked into contents/code as sensitivity.mjs, the name QML imports modules by): a factor of 0.25
 * to 4 on a logarithmic scale with 1 in the middle, snapping to 1 near it.
 */

pragma ComponentBehavior: Bound

import QtQuick
import QtQuick.Layouts

import org.kde.kirigami as Kirigami
import org.kde.plasma.components as PlasmaComponents3
import org.kde.plasma.extras as PlasmaExtras

import "../code/sensitivity.mjs" as Sensitivity

PlasmaExtras.Representation {
    id: full

    required property TiltScrollService service
    required property string stateTitle

    readonly property real rowHeight: Kirigami.Units.gridUnit * (Kirigami.Settings.tabletMode ? 2.5 : 2)

    Layout.minimumWidth: Kirigami.Units.gridUnit * 16
    Layout.minimumHeight: Kirigami.Units.gridUnit * 10
    Layout.preferredWidth: Kirigami.Units.gridUnit * 20
    Layout.preferredHeight: content.implicitHeight + header.implicitHeight + Kirigami.Units.largeSpacing * 2

    collapseMarginsHint: true

    header: PlasmaExtras.PlasmoidHeading {
        RowLayout {
            anchors.fill: parent
            spacing: Kirigami.Units.smallSpacing

            Kirigami.Heading {
                Layout.fillWidth: true
                Layout.leftMargin: Kirigami.Units.smallSpacing
                level: 1
                text: i18nc("@title", "Tilt Scroll")
                elide: Text.ElideRight
            }

            PlasmaComponents3.Switch {
                id: enabledSwitch

                Layout.minimumHeight: full.rowHeight
                visible: full.service.present
                checked: full.service.enabled
                text: i18nc("@option:check", "Tilt scrolling")
                Accessible.name: i18nc("@option:check", "Tilt scrolling")
                Accessible.description: full.stateTitle

                // Asks for the opposite and shows the daemon's answer:
                // the switch goes back to what the daemon says until its
                // PropertiesChanged (or a refusal) comes.
                onToggled: {
                    const wanted = checked;
                    checked = Qt.binding(() => full.service.enabled);
                    full.service.setEnabled(wanted);
                }
            }
        }
    }

    contentItem: Item {
        PlasmaExtras.PlaceholderMessage {
            anchors.centerIn: parent
            width: parent.width - Kirigami.Units.gridUnit * 4
            visible: !full.service.present
            iconName: "input-tablet"
            text: i18nc("@info:status", "Tilt scrolling is not available")
            explanation: i18nc("@info", "tiltscrolld is not running. It starts when an accelerometer is found.")
        }

        ColumnLayout {
            id: content

            anchors.fill: parent
            anchors.margins: Kirigami.Units.largeSpacing
            visible: full.service.present
            spacing: Kirigami.Units.smallSpacing

            PlasmaComponents3.Label {
                id: stateLabel

                Layout.fillWidth: true
                text: full.stateTitle
                font.bold: true
                wrapMode: Text.Wrap
                Accessible.name: text
            }

            PlasmaComponents3.Label {
                id: reasonLabel

                Layout.fillWidth: true
                visible: text !== ""
                text: full.service.stateReason
                wrapMode: Text.Wrap
                opacity: 0.75
                Accessible.name: text
            }

            PlasmaComponents3.Button {
                id: recentreButton

                Layout.fillWidth: true
                Layout.minimumHeight: full.rowHeight
                Layout.topMargin: Kirigami.Units.smallSpacing
                icon.name: "crosshairs"
                text: i18nc("@action:button make the way the tablet is held now the neutral pose", "Re-centre")
                enabled: full.service.active
                Accessible.description: i18nc("@info:tooltip", "Make the way you hold the tablet now the pose that does not scroll")
                onClicked: full.service.calibrate()

                PlasmaComponents3.ToolTip.text: Accessible.description
                PlasmaComponents3.ToolTip.visible: hovered
                PlasmaComponents3.ToolTip.delay: Kirigami.Units.toolTipDelay
            }

            RowLayout {
                Layout.fillWidth: true
                Layout.minimumHeight: full.rowHeight
                spacing: Kirigami.Units.smallSpacing

                PlasmaComponents3.Label {
                    text: i18nc("@label:slider", "Sensitivity")
                }

                PlasmaComponents3.Slider {
                    id: sensitivitySlider

                    Layout.fillWidth: true
                    Layout.minimumHeight: full.rowHeight
                    from: 0
                    to: 1
                    stepSize: 0
                    Accessible.name: i18nc("@label:slider", "Sensitivity")

                    // Follows the daemon except while a finger holds it.
                    Binding on value {
                        when: !sensitivitySlider.pressed
                        value: Sensitivity.positionForFactor(full.service.sensitivity)
                        restoreMode: Binding.RestoreNone
                    }

                    // Written when the handle is let go, or at once from the keyboard.
                    onPressedChanged: if (!pressed) write()
                    onMoved: if (!pressed) write()

                    function write(): void {
                        const factor = Sensitivity.factorForPosition(value);
                        if (factor === full.service.sensitivity) {
                            // Snapped back to the value it has: show where.
                            value = Sensitivity.positionForFactor(factor);
                            return;
                        }
                        full.service.setSensitivity(factor);
                    }
                }

                PlasmaComponents3.Label {
                    // Wide enough for "0.25×" so that the slider does not move as it changes.
                    Layout.minimumWidth: metrics.advanceWidth
                    horizontalAlignment: Text.AlignRight
                    text: Sensitivity.formatFactor(sensitivitySlider.pressed
                        ? Sensitivity.factorForPosition(sensitivitySlider.value)
                        : full.service.sensitivity)

                    TextMetrics {
                        id: metrics
                        text: Sensitivity.formatFactor(Sensitivity.MINIMUM)
                    }
                }
            }

            Item {
                Layout.fillHeight: true
            }
        }
    }
}
