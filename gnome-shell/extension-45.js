// Tilt Scroll for GNOME Shell 45 to 49: a Quick Settings toggle for
// tiltscrolld, placed after Auto Rotate. Nothing happens at import; enable()
// builds everything and disable() takes all of it away again. Installed as
// extension.js of the 45 build (Makefile, GNOME_EXTENSION_FLAVOUR=45).

import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';
import * as Main from 'resource:///org/gnome/shell/ui/main.js';

import {TiltScrollIndicator} from './indicator.js';

export default class TiltScrollExtension extends Extension {
    enable() {
        this._indicator = new TiltScrollIndicator(this.dir);
        const quickSettings = Main.panel.statusArea.quickSettings;
        quickSettings.addExternalIndicator(this._indicator);
        this._indicator.placeAfterAutoRotate(quickSettings);
    }

    disable() {
        this._indicator.destroy();
        this._indicator = null;
    }
}
