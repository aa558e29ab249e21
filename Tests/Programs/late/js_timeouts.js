#!/usr/bin/gjs
// js_timeouts.js [N] — many one-shot GLib timeouts from GJS, no window, no GTK.
//
// Adds N (default 20000) one-shot timeouts through GLib.timeout_add, each of 1 ms, each counting
// its firing and returning GLib.SOURCE_REMOVE; runs a GLib main loop until all have fired (the
// last one quits the loop), then prints one line on stdout: "js-timeouts: fired=N".
// A safety timeout of 60 s ends the loop if something goes wrong (fired is then < N, exit 1).
//   /usr/bin/gjs js_timeouts.js 20000
const System = imports.system;
const {GLib} = imports.gi;

const n = ARGV.length > 0 ? parseInt(ARGV[0], 10) : 20000;
if (!(n >= 0)) {
    printerr('usage: js_timeouts.js [N]');
    System.exit(2);
}

const loop = new GLib.MainLoop(null, false);
let fired = 0;
for (let i = 0; i < n; i++) {
    GLib.timeout_add(GLib.PRIORITY_DEFAULT, 1, () => {
        fired++;
        if (fired === n)
            loop.quit();
        return GLib.SOURCE_REMOVE;
    });
}
if (n > 0) {
    const guard = GLib.timeout_add_seconds(GLib.PRIORITY_DEFAULT, 60, () => {
        loop.quit();
        return GLib.SOURCE_REMOVE;
    });
    loop.run();
    GLib.source_remove(guard);
}
print(`js-timeouts: fired=${fired}`);
if (fired !== n)
    System.exit(1);
