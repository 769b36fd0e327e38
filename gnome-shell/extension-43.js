/* exported init */
'use strict';

// Tilt Scroll for GNOME Shell 43: a Quick Settings toggle for tiltscrolld,
// placed after Auto Rotate. Nothing happens at import or in init(); enable()
// builds everything and disable() takes all of it away again. Installed as
// extension.js of the 43 build (Makefile, GNOME_EXTENSION_FLAVOUR=43), beside
// the legacy modules gnome-shell/legacy-imports.sed makes of the shared ones.

const ExtensionUtils = imports.misc.extensionUtils;
const Main = imports.ui.main;

const Me = ExtensionUtils.getCurrentExtension();
const {TiltScrollIndicator} = Me.imports.indicator;

class Extension {
    enable() {
        this._indicator = new TiltScrollIndicator(Me.dir);
        // 43 has no public API for Quick Settings items: its own indicators
        // are added through these two, and so are extensions'.
        const quickSettings = Main.panel.statusArea.quickSettings;
        quickSettings._indicators.add_child(this._indicator);
        quickSettings._addItems(this._indicator.quickSettingsItems);
        this._indicator.placeAfterAutoRotate(quickSettings);
    }

    disable() {
        this._indicator.destroy();
        this._indicator = null;
    }
}

/** @returns {Extension} the extension, which does nothing until enabled */
function init() {
    return new Extension();
}
