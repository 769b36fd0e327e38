// tiltscrolld on the system bus, as the toggle sees it: the cached properties
// of io.github.tiltscroll.TiltScroll1, whether the daemon is on the bus at
// all, and the three things a person may ask of it. Everything is
// asynchronous: the interface description is read from the extension's
// directory, the proxy is made and its properties fetched without blocking
// the shell, and writes go out as org.freedesktop.DBus.Properties.Set calls
// whose answer (or refusal) comes back through a callback.

import Gio from 'gi://Gio';
import GLib from 'gi://GLib';

const BUS_NAME = 'io.github.tiltscroll.TiltScroll1';
const OBJECT_PATH = '/io/github/tiltscroll/TiltScroll1';
const INTERFACE = 'io.github.tiltscroll.TiltScroll1';

/**
 * @param {Error} error - what a Gio operation threw
 * @returns {boolean} whether it was only our own cancellation
 */
function isCancellation(error) {
    return error instanceof GLib.Error &&
        error.matches(Gio.IOErrorEnum, Gio.IOErrorEnum.CANCELLED);
}

export const TiltScrollService = class {
    /**
     * @param {Gio.File} interfaceFile - the introspection XML of the API
     * @param {Function} onChanged - called with no arguments whenever a
     *   property, or the daemon's presence on the bus, may have changed
     */
    constructor(interfaceFile, onChanged) {
        this._onChanged = onChanged;
        this._cancellable = new Gio.Cancellable();
        this._proxy = null;
        // Sensitivity writes are coalesced: one in flight, the latest waiting.
        this._sensitivityInFlight = false;
        this._sensitivityWaiting = null;

        interfaceFile.load_contents_async(this._cancellable, (file, result) => {
            let info;
            try {
                const [, contents] = file.load_contents_finish(result);
                const xml = new TextDecoder().decode(contents);
                info = Gio.DBusNodeInfo.new_for_xml(xml).lookup_interface(INTERFACE);
                if (!info)
                    throw new Error(`${file.get_path()} does not describe ${INTERFACE}`);
            } catch (error) {
                if (!isCancellation(error))
                    logError(error, 'Tilt Scroll: cannot read the D-Bus interface');
                return;
            }
            this._makeProxy(info);
        });
    }

    _makeProxy(info) {
        // No auto-start: opening Quick Settings must never start the daemon.
        // Invalidated properties are fetched again, so the cache stays whole.
        Gio.DBusProxy.new_for_bus(Gio.BusType.SYSTEM,
            Gio.DBusProxyFlags.DO_NOT_AUTO_START |
            Gio.DBusProxyFlags.GET_INVALIDATED_PROPERTIES,
            info, BUS_NAME, OBJECT_PATH, INTERFACE, this._cancellable,
            (source, result) => {
                try {
                    this._proxy = Gio.DBusProxy.new_for_bus_finish(result);
                } catch (error) {
                    if (!isCancellation(error))
                        logError(error, 'Tilt Scroll: cannot watch tiltscrolld on the system bus');
                    return;
                }
                this._proxy.connectObject(
                    'g-properties-changed', () => this._onChanged(),
                    'notify::g-name-owner', () => this._onChanged(),
                    this);
                this._onChanged();
            });
    }

    /** Whether tiltscrolld is on the bus and its properties are known. */
    get present() {
        return this._proxy !== null && this._proxy.g_name_owner !== null &&
            this._proxy.get_cached_property('Enabled') !== null;
    }

    /**
     * @param {string} name - a property of the interface
     * @returns {*} its cached value unpacked, or null when unknown
     */
    get(name) {
        const value = this._proxy?.get_cached_property(name) ?? null;
        return value === null ? null : value.deepUnpack();
    }

    /**
     * Writes Enabled.
     *
     * @param {boolean} enabled - the new value
     * @param {Function} onError - called with the GLib.Error if refused
     */
    setEnabled(enabled, onError) {
        this._set('Enabled', new GLib.Variant('b', enabled), error => {
            if (error)
                onError(error);
        });
    }

    /**
     * Writes Sensitivity; while a write is under way only the latest value
     * asked for meanwhile is sent after it.
     *
     * @param {number} factor - the new value, within the API's range
     * @param {Function} onError - called with the GLib.Error if refused
     */
    setSensitivity(factor, onError) {
        if (this._sensitivityInFlight) {
            this._sensitivityWaiting = {factor, onError};
            return;
        }
        this._sensitivityInFlight = true;
        this._set('Sensitivity', new GLib.Variant('d', factor), error => {
            this._sensitivityInFlight = false;
            if (error)
                onError(error);
            const waiting = this._sensitivityWaiting;
            this._sensitivityWaiting = null;
            if (waiting)
                this.setSensitivity(waiting.factor, waiting.onError);
        });
    }

    /**
     * Calls Calibrate(): the current pose becomes neutral.
     *
     * @param {Function} onError - called with the GLib.Error if refused
     */
    calibrate(onError) {
        this._call('Calibrate', null, error => {
            if (error)
                onError(error);
        });
    }

    _set(name, value, done) {
        this._call('org.freedesktop.DBus.Properties.Set',
            new GLib.Variant('(ssv)', [INTERFACE, name, value]), done);
    }

    _call(method, parameters, done) {
        if (!this._proxy) {
            done(new GLib.Error(Gio.IOErrorEnum, Gio.IOErrorEnum.NOT_CONNECTED,
                'tiltscrolld is not on the system bus'));
            return;
        }
        this._proxy.call(method, parameters, Gio.DBusCallFlags.NONE, -1,
            this._cancellable, (proxy, result) => {
                try {
                    proxy.call_finish(result);
                } catch (error) {
                    if (!isCancellation(error))
                        done(error);
                    return;
                }
                done(null);
            });
    }

    /** Stops everything under way and forgets the daemon. */
    destroy() {
        this._cancellable.cancel();
        this._proxy?.disconnectObject(this);
        this._proxy = null;
        this._sensitivityWaiting = null;
        this._onChanged = () => {};
    }
};
