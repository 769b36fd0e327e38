// TEST ONLY (the harness copies it into a throwaway data directory; it is
// never installed): unsafe mode lets the harness call org.gnome.Shell.Eval
// and org.gnome.Shell.Screenshot, which GNOME Shell 45 to 49 refuse
// otherwise and have no command-line option for. The same helper for 43 is
// ../43.

import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';

export default class UnsafeModeForTests extends Extension {
    enable() {
        this._previous = global.context.unsafe_mode;
        global.context.unsafe_mode = true;
    }

    disable() {
        global.context.unsafe_mode = this._previous;
    }
}
