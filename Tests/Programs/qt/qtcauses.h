/* qtcauses.h — what every program of the Qt corpus shares; Qt 5 and Qt 6, Widgets and Quick.
 *
 * Included first by every program's .cpp; qtcauses.cpp (the implementation) is compiled once per
 * Qt version and module set by scripts/build-qt-programs.sh and linked into every program, each
 * built twice (qt5-NAME and qt6-NAME). Nothing here changes what the program lays out: it reads
 * the environment, quits after CAUSE_SECONDS, and (CAUSE_SELFCHECK only) listens to Qt's own events
 * and signals. Needs no moc. (QT_WIDGETS_LIB / QT_QUICK_LIB, from pkg-config, select the parts.)
 *
 *   cause::init("ping-pong")        before the QApplication: reads CAUSE_SECONDS (default 6, a
 *                                   decimal number) and CAUSE_SELFCHECK; the program's name becomes
 *                                   "qt5-ping-pong" or "qt6-ping-pong" (the "done" line)
 *   cause::watchWidgetWindow(w)     a top-level widget (its objectName names it) to show and to
 *                                   watch
 *   cause::watchQuickWindow(w)      a QQuickWindow to watch (shown by the program or by its QML)
 *   cause::watchQml(engine)         every QQuickWindow the engine created (QML `Window`s)
 *   cause::watch(object)            one more object to count (one created after run() started);
 *                                   run() watches every named widget / item of the watched windows
 *                                   by itself (and again 0.5 s later, for items QML made late)
 *   cause::laidOut(object)          counts a layout of `object` (called by the app's own
 *                                   updatePolish / geometryChange overrides and layout classes)
 *   cause::drive(context)           counts a step of a healthy program's outside driver (a timer
 *                                   tick, an animation step, a synthetic input) that changes what
 *                                   is laid out, in the window of `context` (every window if none)
 *   cause::rerequest()              counts a re-request by a loop's truth function
 *   cause::qmlProbe()               a QQmlPropertyMap to set as the context property "cause": QML
 *                                   counts with `cause.drives += 1` / `cause.rerequests += 1`
 *   cause::qmlMain(argc, argv, name, qml, setup)  main() of a QML program: init, QGuiApplication,
 *                                   the "cause" probe, setup(engine) (C++ types), the QML, run()
 *   cause::run()                    shows the watched widget windows, runs the event loop
 *                                   CAUSE_SECONDS and quits by itself; prints "<prog>: done" on
 *                                   stdout and returns 0 (main's status)
 *   cause::elapsed()                seconds since run() started
 *   cause::note(fmt, ...)           a stderr line about the program's own state (CAUSE_SELFCHECK=2)
 *
 * CAUSE_SELFCHECK=1: at exit, on stderr, one line per watched window and one per watched object,
 * counted with Qt's own means (independent of LoopHunter):
 *   selfcheck: window=NAME kind=widgets|quick iterations=I iterations_with_layout=J frames=F
 *              frames_with_layout=N layouts=L seconds=S per_second=a,b,... drives=D rerequests=R
 *              user_cpu=U       (drives: in this window; rerequests: in the whole program)
 *   selfcheck: object=NAME class=CLASS window=W layouts=L iterations_with_layout=J
 *              frames_with_layout=N frames=F longest_frame_run=K undriven_frames=U first=T0
 *              max_gap_ms=G per_second=a,b,...
 * iterations  the event loop's iterations: QAbstractEventDispatcher::awake emissions (one per
 *             g_main_context_iteration with Qt's default GLib dispatcher)
 * frames      Widgets: QEvent::UpdateRequest deliveries to the top-level widget or its QWindow
 *             (the repaint pass; at most one counted per iteration); Quick:
 *             QQuickWindow::afterAnimating emissions (once per frame, on the GUI thread, right
 *             after the polish phase of every render loop)
 * layouts     Widgets: QEvent::LayoutRequest (its own layout ran), QEvent::Resize and QEvent::Move
 *             delivered to the object (an event filter on qApp); Quick: the item's x/y/width/
 *             height/implicitWidth/implicitHeight/visible change signals, plus the app's own
 *             cause::laidOut() calls
 *             (updatePolish / geometryChange overrides); a window's layouts are those of every
 *             widget of it (Widgets) or of its watched items (Quick)
 * frames_with_layout  frames before which the object (window) was laid out at least once since
 *             the window's previous frame; per_second = frames with layout in each whole second;
 *             longest_frame_run = the longest run of consecutive frames with layout
 * undriven_frames  frames with layout of the object with no cause::drive() in its window since
 *             the object's previous frame with layout: a loop's are all of them; a healthy
 *             program's are its first one or two (showing the window) and none after
 * max_gap_ms  the longest time between two layouts of the object after its first (first=T0, s)
 * With CAUSE_SELFCHECK=2 also one stderr line per frame of every watched window and the
 * program's own notes (cause::note).
 */
#ifndef QTCAUSES_H
#define QTCAUSES_H

#include <QtGlobal>
#include <QAbstractEventDispatcher>
#include <QByteArray>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QGuiApplication>
#include <QPointer>
#include <QString>
#include <QTimer>
#include <QWindow>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <sys/resource.h>

#ifdef QT_WIDGETS_LIB
#include <QApplication>
#include <QWidget>
#endif
#ifdef QT_QUICK_LIB
#include <QQmlApplicationEngine>
#include <QQmlContext>
#include <QQmlPropertyMap>
#include <QQuickItem>
#include <QQuickWindow>
#endif

namespace cause {

void init(const char *name);
const char *programName();
double elapsed();
/* A triangle wave of period `period` seconds over the run's time: 0 at the start of each period,
 * 1 half way, 0 again at its end (what the healthy drivers move a size or a position along). */
double triangleWave(double period);
void note(const char *format, ...) __attribute__((format(printf, 1, 2)));
void drive(QObject *context = nullptr);
void rerequest();
void laidOut(QObject *object);
void watch(QObject *object);
int run();
#ifdef QT_WIDGETS_LIB
void watchWidgetWindow(QWidget *window);
/* The healthy "user drags the border" driver: every `everyMs` a timer (a child of `window`) resizes
 * the window to `height` tall and low + (high - low) x triangleWave(2 s) wide, a drive each time. */
void resizeWindowWidth(QWidget *window, int low, int high, int height, int everyMs = 50);
#endif
#ifdef QT_QUICK_LIB
void watchQuickWindow(QQuickWindow *window);
void watchQml(QQmlApplicationEngine &engine);
QQmlPropertyMap *qmlProbe();
int qmlMain(int argc, char **argv, const char *name, const char *qml,
            void (*setup)(QQmlApplicationEngine &) = nullptr);
#endif

} // namespace cause

#endif
