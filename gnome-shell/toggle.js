// The "Tilt Scroll" toggle of Quick Settings and its menu. The state is the
// subtitle of the menu's header, the way GNOME Shell 43's own toggles describe
// themselves, and from 44 on (toggles got a subtitle then) also the toggle's;
// the daemon's reason is a line beneath the header.
//
// The toggle shows what the daemon says and nothing else: a tap asks for the
// opposite of the current Enabled, and the toggle changes when the daemon's
// PropertiesChanged arrives; a refusal leaves it as it was and says why in a
// notification.

import Clutter from 'gi://Clutter';
import GObject from 'gi://GObject';
import St from 'gi://St';

import * as PopupMenu from 'resource:///org/gnome/shell/ui/popupMenu.js';
import * as QuickSettings from 'resource:///org/gnome/shell/ui/quickSettings.js';
import {Slider} from 'resource:///org/gnome/shell/ui/slider.js';

import {describeFailure} from './errors.js';
import * as Sensitivity from './sensitivity.js';
import {TiltScrollService} from './service.js';
import {SHELL_MAJOR} from './shellVersion.js';

// 44 renamed the toggle's label to title (the old name now warns) and gave
// it a subtitle.
const HAS_SUBTITLE = SHELL_MAJOR >= 44;

export const TITLE = 'Tilt Scroll';

// The subtitle for each state the API names. Clients treat an unknown name
// like "active". "following" is a hand holding still, most of the time a
// person reads: it stays "Active" (the menu gives the reason), so that the
// subtitle does not flicker each time the hand moves. "paused" is switched
// on but quiet because nobody can be reading (the screen locked, the session
// idle, the lid closed...): the switch stays on and the reason line says why.
const STATE_SUBTITLES = new Map([
    ['off', 'Off'],
    ['waiting-for-sensor', 'No sensor'],
    ['active', 'Active'],
    ['resting', 'Resting'],
    ['touched', 'Touched'],
    ['following', 'Active'],
    ['paused', 'Paused'],
]);

/**
 * @param {string} name - the first member of the State property
 * @param {boolean} enabled - the Enabled property
 * @returns {string} the header's subtitle
 */
export function subtitleFor(name, enabled) {
    // Switched on but not wanted now by [Activation] (a laptop in laptop
    // mode, say): the reason line says why.
    if (name === 'off' && enabled)
        return 'Paused';
    return STATE_SUBTITLES.get(name) ?? STATE_SUBTITLES.get('active');
}

export const TiltScrollToggle = GObject.registerClass(
class TiltScrollToggle extends QuickSettings.QuickMenuToggle {
    /**
     * @param {object} params
     * @param {Gio.Icon} params.gicon - the extension's icon
     * @param {Gio.File} params.interfaceFile - the API's introspection XML
     * @param {object} params.notifier - shows refusals to the person
     */
    _init({gicon, interfaceFile, notifier}) {
        super._init({[HAS_SUBTITLE ? 'title' : 'label']: TITLE, gicon, visible: false});
        this._gicon = gicon;
        this._notifier = notifier;
        this._draggingSlider = false;
        this._syncingSlider = false;

        this._buildMenu();

        this._service = new TiltScrollService(interfaceFile, () => this._sync());
        this.connect('clicked', () => this._switch());
        this.connect('destroy', () => this._onDestroy());
        this._sync();
    }

    _buildMenu() {
        this.menu.setHeader(this._gicon, TITLE);

        this._reasonItem = new PopupMenu.PopupMenuItem('', {reactive: false});
        this.menu.addMenuItem(this._reasonItem);

        this.menu.addMenuItem(new PopupMenu.PopupSeparatorMenuItem());

        this._calibrateItem = new PopupMenu.PopupMenuItem('Re-centre');
        this._calibrateItem.connect('activate', () => this._calibrate());
        this.menu.addMenuItem(this._calibrateItem);

        this._sensitivityItem = new PopupMenu.PopupBaseMenuItem({activate: false});
        this._sensitivityItem.add_child(new St.Label({
            text: 'Sensitivity',
            y_align: Clutter.ActorAlign.CENTER,
        }));
        this._slider = new Slider(Sensitivity.positionForFactor(1));
        this._slider.accessible_name = 'Sensitivity';
        this._sensitivityItem.add_child(this._slider);
        this._sensitivityValue = new St.Label({
            text: Sensitivity.formatFactor(1),
            y_align: Clutter.ActorAlign.CENTER,
        });
        this._sensitivityItem.add_child(this._sensitivityValue);
        this._sensitivityItem.connect('button-press-event',
            (item, event) => this._slider.startDragging(event));
        this._sensitivityItem.connect('scroll-event',
            (item, event) => this._slider.scroll(event));
        this.menu.addMenuItem(this._sensitivityItem);

        this._slider.connect('notify::value', () => this._sliderMoved());
        this._slider.connect('drag-begin', () => (this._draggingSlider = true));
        this._slider.connect('drag-end', () => {
            this._draggingSlider = false;
            this._writeSensitivity();
        });
    }

    _switch() {
        const wanted = !this.checked;
        this._service.setEnabled(wanted, error => this._failed(
            wanted ? 'switch Tilt Scroll on' : 'switch Tilt Scroll off', error));
    }

    _calibrate() {
        this._service.calibrate(error => this._failed('re-centre Tilt Scroll', error));
    }

    _sliderMoved() {
        if (this._syncingSlider)
            return;
        const factor = Sensitivity.factorForPosition(this._slider.value);
        this._sensitivityValue.text = Sensitivity.formatFactor(factor);
        // While the handle is dragged only its release is sent.
        if (!this._draggingSlider)
            this._writeSensitivity();
    }

    _writeSensitivity() {
        const factor = Sensitivity.factorForPosition(this._slider.value);
        if (factor === this._service.get('Sensitivity'))
            return;
        this._service.setSensitivity(factor, error => this._failed(
            'change the sensitivity of Tilt Scroll', error));
    }

    _failed(action, error) {
        const {title, body} = describeFailure(action, error);
        this._notifier.notify(title, body);
        this._sync();
    }

    _sync() {
        const service = this._service;
        this.visible = service.present;
        if (!this.visible) {
            this.menu.close();
            return;
        }

        const enabled = service.get('Enabled') === true;
        this.checked = enabled;

        const [name, reason] = service.get('State') ?? ['', ''];
        const subtitle = subtitleFor(name, enabled);
        this.menu.setHeader(this._gicon, TITLE, subtitle);
        if (HAS_SUBTITLE)
            this.subtitle = subtitle;
        this._reasonItem.label.text = reason;
        this._reasonItem.visible = reason !== '';

        this._calibrateItem.setSensitive(service.get('Active') === true);

        const factor = service.get('Sensitivity');
        if (factor !== null && !this._draggingSlider) {
            this._syncingSlider = true;
            this._slider.value = Sensitivity.positionForFactor(factor);
            this._syncingSlider = false;
            this._sensitivityValue.text = Sensitivity.formatFactor(factor);
        }
    }

    _onDestroy() {
        this._service.destroy();
        // A QuickSettingsItem (43 to 49) leaves its menu behind in the
        // Quick Settings overlay; it goes with the toggle.
        this.menu.destroy();
    }
});
