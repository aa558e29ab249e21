#!/usr/bin/gjs
// LOOPHUNTER-TRUTH: loop widget=GtkLabel,GjsPingLabel name=ping,pong cause=deferred function=pingIdle,pongIdle
// gjs_ping_pong.js — ping_pong.c in JavaScript (GJS), GTK 3 or GTK 4 (CAUSE_GTK=3|4).
//
// Two sibling labels change each other's text through idles, forever (the four-state cycle of
// ping_pong.c, one step per frame). The idles are added from each label's allocation: GTK 3 the
// "size-allocate" signal; GTK 4 a Gtk.Label subclass (GjsPingLabel) overriding vfunc_size_allocate.
// Re-requesting functions: pingIdle, pongIdle (JavaScript functions: a native stack shows the
// JavaScript engine's frames, not these names).
imports.searchPath.unshift(imports.gi.GLib.path_get_dirname(imports.system.programInvocationName));
const C = imports.causes_common;
const {Gtk, GLib} = C;
const GObject = imports.gi.GObject;

const PING_LONG = 'Connected to mail.example.org over TLS 1.3';
const PING_SHORT = 'Online';
const PONG_LONG = 'Receiving 1,204 messages in 3 folders';
const PONG_SHORT = 'Syncing';

let ping, pong, pingThreshold, pongThreshold, pongPending, pingPending;
let pingSource = 0, pongSource = 0;

function pingIdle() {
    pingSource = 0;
    pong.set_text(pongPending);
    return GLib.SOURCE_REMOVE;
}

function pongIdle() {
    pongSource = 0;
    ping.set_text(pingPending);
    return GLib.SOURCE_REMOVE;
}

function pingAllocated(width) {
    const want = width >= pingThreshold ? PONG_SHORT : PONG_LONG;
    if (pong.get_text() === want)
        return;
    pongPending = want;
    if (!pingSource)
        pingSource = GLib.idle_add(GLib.PRIORITY_DEFAULT_IDLE, pingIdle);
}

function pongAllocated(width) {
    const want = width >= pongThreshold ? PING_LONG : PING_SHORT;
    if (ping.get_text() === want)
        return;
    pingPending = want;
    if (!pongSource)
        pongSource = GLib.idle_add(GLib.PRIORITY_DEFAULT_IDLE, pongIdle);
}

C.init('ping-pong');
const window = C.windowNew('main-window', 'gjs ping-pong', 420, 80);
const box = C.boxNew(Gtk.Orientation.VERTICAL, 4);
if (C.GTK === 3) {
    ping = new Gtk.Label({label: PING_LONG});
    pong = new Gtk.Label({label: PONG_LONG});
    ping.connect('size-allocate', (w, a) => pingAllocated(a.width));
    pong.connect('size-allocate', (w, a) => pongAllocated(a.width));
} else {
    const GjsPingLabel = GObject.registerClass({GTypeName: 'GjsPingLabel'},
        class GjsPingLabel extends Gtk.Label {
            vfunc_size_allocate(width, height, baseline) {
                super.vfunc_size_allocate(width, height, baseline);
                this.onAllocated(width);
            }
        });
    ping = new GjsPingLabel({label: PING_LONG});
    pong = new GjsPingLabel({label: PONG_LONG});
    ping.onAllocated = pingAllocated;
    pong.onAllocated = pongAllocated;
}
ping.set_name('ping');
pong.set_name('pong');
ping.set_halign(Gtk.Align.START);
pong.set_halign(Gtk.Align.START);
pingThreshold = Math.floor((C.textWidth(ping, PING_LONG) + C.textWidth(ping, PING_SHORT)) / 2);
pongThreshold = Math.floor((C.textWidth(pong, PONG_LONG) + C.textWidth(pong, PONG_SHORT)) / 2);
C.boxAppend(box, ping);
C.boxAppend(box, pong);
C.setChild(window, box);
C.run();
