/* x_close.c — asks every top-level window of a process to close, as a window manager's close
 * button does: a WM_DELETE_WINDOW client message to each window whose _NET_WM_PID is the pid.
 * GTK then ends the program normally (exit status 0, destructors run).
 *
 *   lh-x-close PID              exit status 0 when at least one window was found, 1 otherwise
 *   lh-x-close --window WID     the one window WID (a decimal or 0x id, as xdotool prints it): a
 *                               dialog closed as its title bar's close button would close it
 */
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static int closed;

/* A window may go away while the tree is walked (a tooltip, a dialog being destroyed): its
 * BadWindow is ignored instead of ending the program (Xlib's default handler exits). */
static int ignore_error(Display *d, XErrorEvent *e) {
    (void)d, (void)e;
    return 0;
}

static void send_delete(Display *d, Window w, Atom protocols, Atom del) {
    XEvent e = {0};
    e.xclient.type = ClientMessage;
    e.xclient.window = w;
    e.xclient.message_type = protocols;
    e.xclient.format = 32;
    e.xclient.data.l[0] = (long)del;
    e.xclient.data.l[1] = CurrentTime;
    XSendEvent(d, w, False, NoEventMask, &e);
    closed++;
}

static void visit(Display *d, Window w, unsigned long pid, Atom net_wm_pid, Atom protocols, Atom del) {
    Atom type;
    int format;
    unsigned long n, after;
    unsigned char *data = NULL;
    if (XGetWindowProperty(d, w, net_wm_pid, 0, 1, False, XA_CARDINAL, &type, &format, &n, &after, &data) == Success &&
        data != NULL && n == 1 && *(unsigned long *)data == pid) {
        send_delete(d, w, protocols, del);
    }
    if (data != NULL) XFree(data);
    Window root, parent, *children = NULL;
    unsigned count = 0;
    if (XQueryTree(d, w, &root, &parent, &children, &count)) {
        for (unsigned i = 0; i < count; i++) visit(d, children[i], pid, net_wm_pid, protocols, del);
        if (children != NULL) XFree(children);
    }
}

int main(int argc, char **argv) {
    bool one = argc == 3 && strcmp(argv[1], "--window") == 0;
    if (argc != 2 && !one) {
        fprintf(stderr, "usage: lh-x-close PID | lh-x-close --window WID\n");
        return 2;
    }
    Display *d = XOpenDisplay(NULL);
    if (d == NULL) {
        fprintf(stderr, "lh-x-close: cannot open the display\n");
        return 2;
    }
    XSetErrorHandler(ignore_error);
    Atom protocols = XInternAtom(d, "WM_PROTOCOLS", False), del = XInternAtom(d, "WM_DELETE_WINDOW", False);
    if (one)
        send_delete(d, (Window)strtoul(argv[2], NULL, 0), protocols, del);
    else
        visit(d, DefaultRootWindow(d), strtoul(argv[1], NULL, 10), XInternAtom(d, "_NET_WM_PID", False), protocols,
              del);
    XSync(d, False);
    XCloseDisplay(d);
    return closed > 0 ? 0 : 1;
}
