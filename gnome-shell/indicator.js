// What the extension adds to Quick Settings, whichever GNOME Shell it runs
// in: a SystemIndicator (no icon in the top bar) holding the Tilt Scroll
// toggle, with the notifier its refusals go to. The entry points
// (extension-43.js, extension-45.js) make one in enable(), hand it to Quick
// Settings the way their shell allows, and destroy it in disable();
// destroying it takes the toggle, its menu and any notification with it.

import Gio from 'gi://Gio';
import GObject from 'gi://GObject';

import * as QuickSettings from 'resource:///org/gnome/shell/ui/quickSettings.js';

import {Notifier} from './notifier.js';
import {TiltScrollToggle, TITLE} from './toggle.js';

const INTERFACE_FILE = 'io.github.tiltscroll.TiltScroll1.xml';
const ICON_FILE = 'icons/tiltscroll-symbolic.svg';

export const TiltScrollIndicator = GObject.registerClass(
class TiltScrollIndicator extends QuickSettings.SystemIndicator {
    /**
     * @param {Gio.File} directory - the extension's directory
     */
    _init(directory) {
        super._init();
        const gicon = Gio.FileIcon.new(directory.resolve_relative_path(ICON_FILE));
        this._notifier = new Notifier(TITLE, gicon);
        this._toggle = new TiltScrollToggle({
            gicon,
            interfaceFile: directory.get_child(INTERFACE_FILE),
            notifier: this._notifier,
        });
        this.quickSettingsItems.push(this._toggle);
    }

    /**
     * What disable() calls. Not a 'destroy' handler: when the shell itself
     * shuts down it tears the stage down, the toggle (which lives in the
     * Quick Settings grid, not in here) and the message tray first, and
     * nothing of this may be touched again then.
     */
    destroy() {
        this._toggle.destroy();
        this._notifier.destroy();
        super.destroy();
    }

    /**
     * Moves the toggle beside the other toggles a convertible's owner reaches
     * for: after Auto Rotate, when that is in the same grid.
     *
     * @param {object} quickSettings - Main.panel.statusArea.quickSettings,
     *   once this indicator's items are in its grid
     */
    placeAfterAutoRotate(quickSettings) {
        const autoRotate = quickSettings._autoRotate?.quickSettingsItems[0];
        const grid = this._toggle.get_parent();
        if (autoRotate && autoRotate.get_parent() === grid)
            grid.set_child_above_sibling(this._toggle, autoRotate);
    }
});
