/* exported explain */
'use strict';

// What to tell a person when tiltscrolld refuses or does not answer. The
// daemon's own message (which says why: not authorized by polkit, polkit not
// running, a value out of range, not active) is kept, without the D-Bus
// error name GDBus puts in front of it.

const {Gio} = imports.gi;

const NOT_ACTIVE = 'io.github.tiltscroll.TiltScroll1.Error.NotActive';

const REASONS = new Map([
    ['org.freedesktop.DBus.Error.AccessDenied', 'You are not allowed to change this.'],
    ['org.freedesktop.DBus.Error.AuthFailed', 'You are not allowed to change this.'],
    ['org.freedesktop.DBus.Error.InteractiveAuthorizationRequired', 'You are not allowed to change this.'],
    [NOT_ACTIVE, 'Tilt scrolling is not active.'],
    ['org.freedesktop.DBus.Error.InvalidArgs', 'tiltscrolld did not accept the value.'],
    ['org.freedesktop.DBus.Error.ServiceUnknown', 'tiltscrolld is not running.'],
    ['org.freedesktop.DBus.Error.NameHasNoOwner', 'tiltscrolld is not running.'],
    ['org.freedesktop.DBus.Error.NoReply', 'tiltscrolld did not answer.'],
    ['org.freedesktop.DBus.Error.Timeout', 'tiltscrolld did not answer.'],
]);

/**
 * @param {GLib.Error} error - a failed call to tiltscrolld
 * @returns {string} a sentence for a notification's body
 */
function explain(error) {
    const name = Gio.DBusError.is_remote_error(error)
        ? Gio.DBusError.get_remote_error(error)
        : null;
    // The same as Gio.DBusError.strip_remote_error(), without changing the error.
    const said = error.message.replace(/^GDBus\.Error:[^\s:]+: ?/, '');
    const reason = name ? REASONS.get(name) : null;
    if (!reason)
        return said;
    if (!said)
        return reason;
    return `${reason} tiltscrolld said: ${said}`;
}
