/* exported init */
'use strict';

// TEST ONLY (the harness copies it into a throwaway data
// directory; it is never installed): unsafe mode lets the harness call
// org.gnome.Shell.Eval and org.gnome.Shell.Screenshot, which GNOME Shell 43
// refuses otherwise and has no command-line option for. The same helper
// for 45 to 49 is ../45.

class Extension {
    enable() {
        this._previous = global.context.unsafe_mode;
        global.context.unsafe_mode = true;
    }

    disable() {
        global.context.unsafe_mode = this._previous;
    }
}

/** @returns {Extension} the helper */
function init() {
    return new Extension();
}
