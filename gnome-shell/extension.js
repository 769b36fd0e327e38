/* exported init */
'use strict';

// Tilt Scroll for GNOME Shell 43: a Quick Settings toggle for tiltscrolld,
// placed after Auto Rotate. Nothing happens at import or in init(); enable()
// builds everything and disable() takes all of it away again.

const {Gio} = imports.gi;

const ExtensionUtils = imports.misc.extensionUtils;
const Main = imports.ui.main;
const QuickSettings = imports.ui.quickSettings;

const Me = ExtensionUtils.getCurrentExtension();
const {Notifier} = Me.imports.notifier;
const {TiltScrollToggle, TITLE} = Me.imports.toggle;

const INTERFACE_FILE = 'io.github.tiltscroll.TiltScroll1.xml';
const ICON_FILE = 'icons/tiltscroll-symbolic.svg';

class Extension {
    enable() {
        const gicon = Gio.FileIcon.new(Me.dir.resolve_relative_path(ICON_FILE));
        this._notifier = new Notifier(TITLE, gicon);
        this._toggle = new TiltScrollToggle({
            gicon,
            interfaceFile: Me.dir.get_child(INTERFACE_FILE),
            notifier: this._notifier,
        });

        // 43 has no public API for Quick Settings items: its own indicators
        // are added through these two, and so are extensions'.
        this._indicator = new QuickSettings.SystemIndicator();
        this._indicator.quickSettingsItems.push(this._toggle);
        const quickSettings = Main.panel.statusArea.quickSettings;
        quickSettings._indicators.add_child(this._indicator);
        quickSettings._addItems(this._indicator.quickSettingsItems);

        // Beside the other toggles a convertible's owner reaches for.
        const autoRotate = quickSettings._autoRotate?.quickSettingsItems[0];
        if (autoRotate?.get_parent() === this._toggle.get_parent())
            this._toggle.get_parent().set_child_above_sibling(this._toggle, autoRotate);
    }

    disable() {
        this._toggle.destroy();
        this._toggle = null;
        this._indicator.destroy();
        this._indicator = null;
        this._notifier.destroy();
        this._notifier = null;
    }
}

/** @returns {Extension} the extension, which does nothing until enabled */
function init() {
    return new Extension();
}
