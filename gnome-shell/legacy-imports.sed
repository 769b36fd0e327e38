# Makes the legacy module GNOME Shell 43 loads (imports.*, `var` exports) of
# one of the extension's shared ES modules (import/export), which 45 and
# later load as they are: `sed -E -f legacy-imports.sed MODULE.js`. The
# shared modules keep to the forms below, one statement a line; any other
# import or export stops the translation with exit status 1, so nothing
# half-translated is ever installed.

1i\
// Made for GNOME Shell 43 by gnome-shell/legacy-imports.sed from the ES module\
// of this name in gnome-shell/: change that one.\
'use strict';

# import Gio from 'gi://Gio';
s|^import ([A-Za-z_$][A-Za-z0-9_$]*) from 'gi://([A-Za-z0-9]+)';$|const \1 = imports.gi.\2;|
# import * as Main from 'resource:///org/gnome/shell/ui/main.js';
s|^import \* as ([A-Za-z_$][A-Za-z0-9_$]*) from 'resource:///org/gnome/shell/(ui\|misc)/([A-Za-z0-9_]+)\.js';$|const \1 = imports.\2.\3;|
# import {Slider} from 'resource:///org/gnome/shell/ui/slider.js';
s|^import (\{[A-Za-z0-9_$, ]+\}) from 'resource:///org/gnome/shell/(ui\|misc)/([A-Za-z0-9_]+)\.js';$|const \1 = imports.\2.\3;|
# import * as Sensitivity from './sensitivity.js';
s|^import \* as ([A-Za-z_$][A-Za-z0-9_$]*) from '\./([A-Za-z0-9_]+)\.js';$|const \1 = imports.misc.extensionUtils.getCurrentExtension().imports.\2;|
# import {describeFailure} from './errors.js';
s|^import (\{[A-Za-z0-9_$, ]+\}) from '\./([A-Za-z0-9_]+)\.js';$|const \1 = imports.misc.extensionUtils.getCurrentExtension().imports.\2;|
# A legacy module exports its top-level functions and vars.
s|^export function |function |
s|^export const |var |

# `import {a as b}` (no destructuring equivalent written here), export
# default, export class, export {...}, a statement over several lines.
/^const \{.* as /b refuse
/^(import|export)([^A-Za-z0-9_$]|$)/b refuse
b
:refuse
s|^|legacy-imports.sed: cannot translate this line: |
w /dev/stderr
Q 1
