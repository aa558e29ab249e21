/* x_close.c — asks every top-level window of a process to close, as a window manager's close
 * button does: a WM_DELETE_WINDOW client message to each window whose _NET_WM_PID is the pid.
 * GTK then ends the program normally (exit status 0, destructors run).
 *
 *   lh-x-close PID      exit status 0 when at least one window was found, 1 otherwise
 */
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <stdio.h>
#include <stdlib.h>

static int closed;

static void visit(Display *d, Window w, unsigned long pid, Atom net_wm_pid, Atom protocols, Atom del) {
    Atom type;
    int format;
    unsigned long n, after;
    unsigned char *data = NULL;
    if (XGetWindowProperty(d, w, net_wm_pid, 0, 1, False, XA_CARDINAL, &type, &format, &n, &after, &data) == Success &&
        data != NULL && n == 1 && *(unsigned long *)data == pid) {
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
    if (data != NULL) XFree(data);
    Window root, parent, *children = NULL;
    unsigned count = 0;
    if (XQueryTree(d, w, &root, &parent, &children, &count)) {
        for (unsigned i = 0; i < count; i++) visit(d, children[i], pid, net_wm_pid, protocols, del);
        if (children != NULL) XFree(children);
    }
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: lh-x-close PID\n");
        return 2;
    }
    Display *d = XOpenDisplay(NULL);
    if (d == NULL) {
        fprintf(stderr, "lh-x-close: cannot open the display\n");
        return 2;
    }
    visit(d, DefaultRootWindow(d), strtoul(argv[1], NULL, 10), XInternAtom(d, "_NET_WM_PID", False),
          XInternAtom(d, "WM_PROTOCOLS", False), XInternAtom(d, "WM_DELETE_WINDOW", False));
    XSync(d, False);
    XCloseDisplay(d);
    return closed > 0 ? 0 : 1;
}
