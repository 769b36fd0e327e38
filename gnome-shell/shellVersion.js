// Which GNOME Shell this runs in. The few things the shell changed between
// 43 and 49 that the toggle meets (the toggle's title and subtitle in 44,
// notifications in 46) are decided on its major version, read once.

import * as Config from 'resource:///org/gnome/shell/misc/config.js';

/** The running GNOME Shell's major version, e.g. 48. */
export const SHELL_MAJOR = Number.parseInt(Config.PACKAGE_VERSION, 10);
