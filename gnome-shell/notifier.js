// Tells the person why a request to tiltscrolld failed, in a transient
// notification of the extension's own source, which goes away with the
// extension.
//
// GNOME Shell 46 rebuilt notifications: a Source and a Notification are made
// from a dictionary of properties and a notification is added to its source;
// up to 45 they take their title and text as arguments, a source's icon is
// what its getIcon() returns, and a notification is shown by its source.

import GObject from 'gi://GObject';

import * as Main from 'resource:///org/gnome/shell/ui/main.js';
import * as MessageTray from 'resource:///org/gnome/shell/ui/messageTray.js';

import {SHELL_MAJOR} from './shellVersion.js';

const PROPERTY_NOTIFICATIONS = SHELL_MAJOR >= 46;

// Up to 45 a source's icon is themed unless getIcon() says otherwise.
const IconSource = PROPERTY_NOTIFICATIONS ? null : GObject.registerClass(
class TiltScrollSource extends MessageTray.Source {
    _init(title, gicon) {
        super._init(title);
        this._gicon = gicon;
    }

    getIcon() {
        return this._gicon;
    }
});

export const Notifier = class {
    /**
     * @param {string} title - the source's name in the message tray
     * @param {Gio.Icon} gicon - its icon
     */
    constructor(title, gicon) {
        this._title = title;
        this._gicon = gicon;
        this._source = null;
    }

    /**
     * @param {string} title - what failed
     * @param {string} body - why
     */
    notify(title, body) {
        if (!this._source) {
            this._source = PROPERTY_NOTIFICATIONS
                ? new MessageTray.Source({title: this._title, icon: this._gicon})
                : new IconSource(this._title, this._gicon);
            // A source destroys itself with its last notification.
            this._source.connect('destroy', () => (this._source = null));
            Main.messageTray.add(this._source);
        }
        if (PROPERTY_NOTIFICATIONS) {
            this._source.addNotification(new MessageTray.Notification({
                source: this._source, title, body, isTransient: true,
            }));
        } else {
            const notification = new MessageTray.Notification(this._source, title, body);
            notification.setTransient(true);
            this._source.showNotification(notification);
        }
    }

    destroy() {
        this._source?.destroy();
        this._source = null;
    }
};
