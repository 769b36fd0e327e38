/* exported Notifier */
'use strict';

// Tells the person why a request to tiltscrolld failed, in a transient
// notification of the extension's own source, which goes away with the
// extension.

const {GObject} = imports.gi;

const Main = imports.ui.main;
const MessageTray = imports.ui.messageTray;

const TiltScrollSource = GObject.registerClass(
class TiltScrollSource extends MessageTray.Source {
    _init(title, gicon) {
        super._init(title);
        this._gicon = gicon;
    }

    getIcon() {
        return this._gicon;
    }
});

var Notifier = class {
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
            this._source = new TiltScrollSource(this._title, this._gicon);
            // A source destroys itself with its last notification.
            this._source.connect('destroy', () => (this._source = null));
            Main.messageTray.add(this._source);
        }
        const notification = new MessageTray.Notification(this._source, title, body);
        notification.setTransient(true);
        this._source.showNotification(notification);
    }

    destroy() {
        this._source?.destroy();
        this._source = null;
    }
};
