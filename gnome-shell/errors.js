// What to tell a person when tiltscrolld refuses or does not answer: a title
// that says what did not happen and whether it was a refusal, and the
// daemon's own message (not authorized by polkit, polkit not running, a value
// out of range, not active) without the D-Bus error name GDBus puts in front
// of it. A banner shows the title whole and the start of the body.

import Gio from 'gi://Gio';

// PolkitUnavailable: the daemon refuses what it cannot authorize.
const REFUSALS = new Set([
    'org.freedesktop.DBus.Error.AccessDenied',
    'io.github.tiltscroll.TiltScroll1.Error.PolkitUnavailable',
    'org.freedesktop.DBus.Error.AuthFailed',
    'org.freedesktop.DBus.Error.InteractiveAuthorizationRequired',
]);

// For errors that come without a message worth showing.
const REASONS = new Map([
    ['io.github.tiltscroll.TiltScroll1.Error.NotActive', 'Tilt scrolling is not active.'],
    ['org.freedesktop.DBus.Error.ServiceUnknown', 'tiltscrolld is not running.'],
    ['org.freedesktop.DBus.Error.NameHasNoOwner', 'tiltscrolld is not running.'],
    ['org.freedesktop.DBus.Error.NoReply', 'tiltscrolld did not answer.'],
    ['org.freedesktop.DBus.Error.Timeout', 'tiltscrolld did not answer.'],
]);

/**
 * @param {string} action - what was asked, e.g. "switch Tilt Scroll off"
 * @param {GLib.Error} error - why it failed
 * @returns {{title: string, body: string}} the notification's text
 */
export function describeFailure(action, error) {
    const name = Gio.DBusError.is_remote_error(error)
        ? Gio.DBusError.get_remote_error(error)
        : null;
    const title = REFUSALS.has(name) ? `Not allowed to ${action}` : `Could not ${action}`;
    if (error.matches(Gio.IOErrorEnum, Gio.IOErrorEnum.TIMED_OUT))
        return {title, body: 'tiltscrolld did not answer.'};

    // What Gio.DBusError.strip_remote_error() does, without changing the error.
    const said = error.message.replace(/^GDBus\.Error:[^\s:]+: ?/, '').trim();
    if (said === '')
        return {title, body: REASONS.get(name) ?? 'tiltscrolld gave no reason.'};
    return {title, body: said.charAt(0).toUpperCase() + said.slice(1)};
}
