/* qtcauses.cpp — the implementation of qtcauses.h (see there): run/quit logic and the self-check.
 *
 * Compiled once per Qt version and module set (QT_WIDGETS_LIB / QT_QUICK_LIB from pkg-config) by
 * scripts/build-qt-programs.sh and linked into every program of the Qt corpus.
 */
#include "qtcauses.h"

#include <cmath>

#include <sys/resource.h>

namespace cause {

const int kMaxSeconds = 1800;

struct Counts {
  unsigned long layouts = 0;
  unsigned long itersWith = 0;
  unsigned long lastIter = ~0UL;
  unsigned long framesWith = 0;
  unsigned long frameRun = 0, longestFrameRun = 0;
  unsigned long undriven = 0;
  unsigned long undrivenRun = 0, longestUndrivenRun = 0; // consecutive frames with layout, none driven
  unsigned long driveMark = 0;
  bool sinceFrame = false;
  double first = -1, last = -1, maxGap = 0;
  std::vector<unsigned> perSecond;
};

struct Window : Counts {
  unsigned long windowDrives = 0;
  QString name;
  QPointer<QObject> object; // the top-level QWidget or the QQuickWindow
  bool quick = false;
  unsigned long frames = 0;
  unsigned long lastFrameIter = ~0UL;
};

struct Object : Counts {
  QString name;
  QString cls;
  QPointer<QObject> object;
  int window = -1;
};

struct State {
  char prog[128] = "qt-program";
  double seconds = 6.0;
  int selfcheck = 0;
  bool running = false;
  QElapsedTimer clock;
  unsigned long iteration = 0;
  unsigned long drives = 0;
  unsigned long rerequests = 0;
  std::vector<Window> windows;
  std::vector<Object> objects;
  QObject *filter = nullptr;
};

static State &g() {
  static State s;
  return s;
}

double elapsed() {
  return g().clock.isValid() ? g().clock.nsecsElapsed() / 1e9 : 0.0;
}

double triangleWave(double period) {
  const double phase = std::fmod(elapsed() / period, 1.0);
  return phase < 0.5 ? 2 * phase : 2 - 2 * phase;
}

void note(const char *format, ...) {
  if (g().selfcheck < 2) return;
  va_list ap;
  va_start(ap, format);
  fprintf(stderr, "note: t=%.3f ", elapsed());
  vfprintf(stderr, format, ap);
  fputc('\n', stderr);
  va_end(ap);
}

/* Before the QApplication. */
void init(const char *name) {
  snprintf(g().prog, sizeof g().prog, "qt%d-%s", QT_VERSION_MAJOR, name);
  const char *s = getenv("CAUSE_SECONDS");
  if (s && *s) {
    double v = atof(s);
    if (v > 0 && v <= kMaxSeconds) g().seconds = v;
  }
  const char *c = getenv("CAUSE_SELFCHECK");
  g().selfcheck = c ? atoi(c) : 0;
}

const char *programName() { return g().prog; }

static int windowOfObject(QObject *o);

/* A step of an outside driver; `context` (an object of the window it changes) limits it to that
 * window, none means every window. */
void drive(QObject *context) {
  g().drives++;
  int w = context ? windowOfObject(context) : -1;
  for (size_t i = 0; i < g().windows.size(); i++)
    if (w < 0 || size_t(w) == i) g().windows[i].windowDrives++;
}

void rerequest() { g().rerequests++; }

static void markCounts(Counts &c) {
  c.layouts++;
  c.sinceFrame = true;
  if (c.lastIter != g().iteration) {
    c.itersWith++;
    c.lastIter = g().iteration;
  }
  double t = elapsed();
  if (c.first < 0) c.first = t;
  if (c.last >= 0 && t - c.last > c.maxGap) c.maxGap = t - c.last;
  c.last = t;
}

static int windowIndexOf(QObject *windowObject) {
  for (size_t i = 0; i < g().windows.size(); i++)
    if (g().windows[i].object == windowObject) return int(i);
  return -1;
}

static int objectIndexOf(QObject *o) {
  for (size_t i = 0; i < g().objects.size(); i++)
    if (g().objects[i].object == o) return int(i);
  return -1;
}

static void markWindow(int w) {
  if (w >= 0) markCounts(g().windows[size_t(w)]);
}

/* A layout of a watched object (and of its window). Unwatched objects are ignored. */
void laidOut(QObject *o) {
  if (!g().selfcheck || !g().running) return;
  int i = objectIndexOf(o);
  if (i < 0) return;
  Object &ob = g().objects[size_t(i)];
  markCounts(ob);
  markWindow(ob.window);
}

/* A frame of the window: `drives` is the window's drive count. */
static void frameCounts(Counts &c, unsigned long drives) {
  if (c.sinceFrame) {
    c.framesWith++;
    c.frameRun++;
    if (c.frameRun > c.longestFrameRun) c.longestFrameRun = c.frameRun;
    int t = int(elapsed());
    if (t >= 0 && t < kMaxSeconds) {
      if (c.perSecond.size() <= size_t(t)) c.perSecond.resize(size_t(t) + 1, 0);
      c.perSecond[size_t(t)]++;
    }
    if (drives == c.driveMark) {
      c.undriven++;
      c.undrivenRun++;
      if (c.undrivenRun > c.longestUndrivenRun) c.longestUndrivenRun = c.undrivenRun;
    } else {
      c.undrivenRun = 0;
    }
    c.driveMark = drives;
    c.sinceFrame = false;
  } else {
    c.frameRun = 0;
    c.undrivenRun = 0;
  }
}

static void frame(int w) {
  if (w < 0 || !g().running) return;
  Window &win = g().windows[size_t(w)];
  win.frames++;
  bool had = win.sinceFrame;
  frameCounts(win, win.windowDrives);
  for (Object &o : g().objects)
    if (o.window == w) frameCounts(o, win.windowDrives);
  if (g().selfcheck >= 2)
    fprintf(stderr, "selfcheck: window=%s frame %lu layout=%d t=%.3f\n", qPrintable(win.name),
            win.frames, had ? 1 : 0, elapsed());
}

static QString classOf(QObject *o) { return QString::fromLatin1(o->metaObject()->className()); }

static bool interestingName(const QString &n) {
  return !n.isEmpty() && !n.startsWith(QLatin1String("qt_"));
}

/* Watches `o` (named by its objectName) as part of window index w. */
static void watchIn(QObject *o, int w) {
  if (!o || objectIndexOf(o) >= 0) return;
  Object ob;
  ob.name = o->objectName();
  ob.cls = classOf(o);
  ob.object = o;
  ob.window = w;
  g().objects.push_back(ob);
#ifdef QT_QUICK_LIB
  if (auto *item = qobject_cast<QQuickItem *>(o)) {
    auto mark = [item]() { laidOut(item); };
    QObject::connect(item, &QQuickItem::xChanged, item, mark);
    QObject::connect(item, &QQuickItem::yChanged, item, mark);
    QObject::connect(item, &QQuickItem::widthChanged, item, mark);
    QObject::connect(item, &QQuickItem::heightChanged, item, mark);
    QObject::connect(item, &QQuickItem::implicitWidthChanged, item, mark);
    QObject::connect(item, &QQuickItem::implicitHeightChanged, item, mark);
    QObject::connect(item, &QQuickItem::visibleChanged, item, mark);
  }
#endif
}

/* One more object to count (its window is found when it is shown). */
void watch(QObject *o) {
  if (!g().selfcheck || !o) return;
  watchIn(o, windowOfObject(o));
}

#ifdef QT_WIDGETS_LIB
void resizeWindowWidth(QWidget *window, int low, int high, int height, int everyMs) {
  auto *timer = new QTimer(window);
  QObject::connect(timer, &QTimer::timeout, window, [window, low, high, height]() {
    const int width = low + int((high - low) * triangleWave(2.0));
    drive(window);
    window->resize(width, height);
  });
  timer->start(everyMs);
}

void watchWidgetWindow(QWidget *w) {
  Window win;
  win.name = interestingName(w->objectName()) ? w->objectName() : QStringLiteral("main-window");
  win.object = w;
  g().windows.push_back(win);
}
#endif

#ifdef QT_QUICK_LIB
void watchQuickWindow(QQuickWindow *w) {
  if (windowIndexOf(w) >= 0) return;
  Window win;
  win.name = interestingName(w->objectName()) ? w->objectName() : QStringLiteral("main-window");
  win.object = w;
  win.quick = true;
  g().windows.push_back(win);
  if (!g().selfcheck) return;
  int index = int(g().windows.size()) - 1;
  QObject::connect(w, &QQuickWindow::afterAnimating, w, [index]() { frame(index); },
                   Qt::DirectConnection);
}

/* Every QQuickWindow the QML created: its root Windows first, then the others (a Window declared
 * inside another one), in creation order. */
void watchQml(QQmlApplicationEngine &engine) {
  for (QObject *root : engine.rootObjects())
    if (auto *w = qobject_cast<QQuickWindow *>(root)) watchQuickWindow(w);
  for (QWindow *window : QGuiApplication::allWindows())
    if (auto *w = qobject_cast<QQuickWindow *>(window)) watchQuickWindow(w);
}

/* The context property "cause": QML counts drives and re-requests through it. */
QQmlPropertyMap *qmlProbe() {
  static QQmlPropertyMap *map = nullptr;
  if (!map) {
    map = new QQmlPropertyMap;
    map->insert(QStringLiteral("drives"), 0);
    map->insert(QStringLiteral("rerequests"), 0);
    QObject::connect(map, &QQmlPropertyMap::valueChanged, map,
                     [](const QString &key, const QVariant &) {
                       if (key == QLatin1String("drives")) drive();
                       else if (key == QLatin1String("rerequests")) rerequest();
                     });
  }
  return map;
}
#endif

static int windowOfObject(QObject *o) {
#ifdef QT_WIDGETS_LIB
  if (auto *wd = qobject_cast<QWidget *>(o)) return windowIndexOf(wd->window());
#endif
#ifdef QT_QUICK_LIB
  if (auto *item = qobject_cast<QQuickItem *>(o)) return windowIndexOf(item->window());
#endif
  for (QObject *p = o; p; p = p->parent()) {
    int w = windowIndexOf(p);
    if (w >= 0) return w;
  }
  return -1;
}

/* The event filter on qApp: layout events of widgets, repaint passes of widget windows. */
class Filter : public QObject {
public:
  bool eventFilter(QObject *receiver, QEvent *e) override {
    const QEvent::Type t = e->type();
    if (t != QEvent::LayoutRequest && t != QEvent::Resize && t != QEvent::Move &&
        t != QEvent::UpdateRequest)
      return false;
#ifdef QT_WIDGETS_LIB
    if (t == QEvent::UpdateRequest) {
      int w = -1;
      if (receiver->isWidgetType()) {
        w = windowIndexOf(receiver);
      } else if (receiver->isWindowType()) {
        for (size_t i = 0; i < g().windows.size(); i++) {
          QWidget *tlw = qobject_cast<QWidget *>(g().windows[i].object);
          if (tlw && tlw->windowHandle() == receiver) w = int(i);
        }
      }
      if (w >= 0 && !g().windows[size_t(w)].quick &&
          g().windows[size_t(w)].lastFrameIter != g().iteration) {
        g().windows[size_t(w)].lastFrameIter = g().iteration;
        frame(w);
      }
      return false;
    }
    if (!receiver->isWidgetType()) return false;
    QWidget *widget = static_cast<QWidget *>(receiver);
    int w = windowIndexOf(widget->window());
    if (w < 0 || g().windows[size_t(w)].quick) return false;
    markWindow(w);
    for (Object &o : g().objects) {
      QWidget *ow = qobject_cast<QWidget *>(o.object);
      if (!ow) continue;
      if (ow == widget) markCounts(o);
    }
#else
    (void)receiver;
#endif
    return false;
  }
};

static void printCounts(const Counts &c) {
  fprintf(stderr, " per_second=");
  int whole = int(elapsed());
  if (whole > kMaxSeconds) whole = kMaxSeconds;
  for (int s = 0; s < whole; s++)
    fprintf(stderr, "%s%u", s ? "," : "",
            size_t(s) < c.perSecond.size() ? c.perSecond[size_t(s)] : 0u);
}

static void printSelfcheck() {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  double user = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
  double seconds = elapsed();
  for (const Window &w : g().windows) {
    fprintf(stderr,
            "selfcheck: window=%s kind=%s iterations=%lu iterations_with_layout=%lu frames=%lu "
            "frames_with_layout=%lu layouts=%lu seconds=%.2f",
            qPrintable(w.name), w.quick ? "quick" : "widgets", g().iteration, w.itersWith,
            w.frames, w.framesWith, w.layouts, seconds);
    printCounts(w);
    fprintf(stderr, " drives=%lu rerequests=%lu user_cpu=%.2f\n", w.windowDrives, g().rerequests,
            user);
  }
  for (const Object &o : g().objects) {
    const QByteArray wname =
        o.window >= 0 ? g().windows[size_t(o.window)].name.toLocal8Bit() : QByteArray("-");
    unsigned long frames = o.window >= 0 ? g().windows[size_t(o.window)].frames : 0;
    fprintf(stderr,
            "selfcheck: object=%s class=%s window=%s layouts=%lu iterations_with_layout=%lu "
            "frames_with_layout=%lu frames=%lu longest_frame_run=%lu undriven_frames=%lu "
            "longest_undriven_run=%lu first=%.2f max_gap_ms=%.0f",
            qPrintable(o.name), qPrintable(o.cls), wname.constData(), o.layouts, o.itersWith,
            o.framesWith, frames, o.longestFrameRun, o.undriven, o.longestUndrivenRun, o.first,
            o.maxGap * 1000);
    printCounts(o);
    fputc('\n', stderr);
  }
  fflush(stderr);
}

/* Watches every named widget / item of the watched windows (run() and the first frames). */
static void scanWindows() {
  for (size_t i = 0; i < g().windows.size(); i++) {
    QObject *wo = g().windows[i].object;
    if (!wo) continue;
#ifdef QT_WIDGETS_LIB
    if (auto *tlw = qobject_cast<QWidget *>(wo)) {
      for (QWidget *c : tlw->findChildren<QWidget *>())
        if (interestingName(c->objectName()) && c->window() == tlw) watchIn(c, int(i));
    }
#endif
#ifdef QT_QUICK_LIB
    if (auto *qw = qobject_cast<QQuickWindow *>(wo)) {
      for (QQuickItem *c : qw->contentItem()->findChildren<QQuickItem *>())
        if (interestingName(c->objectName())) watchIn(c, int(i));
      /* items parented to the window object itself (QML Window children) */
      for (QQuickItem *c : qw->findChildren<QQuickItem *>())
        if (interestingName(c->objectName()) && c->window() == qw) watchIn(c, int(i));
    }
#endif
  }
}

/* Shows the watched widget windows, runs CAUSE_SECONDS, quits. Returns main's exit status (0). */
int run() {
  State &s = g();
  if (s.selfcheck) {
    scanWindows();
    s.filter = new Filter;
    qApp->installEventFilter(s.filter);
    if (QAbstractEventDispatcher *d = QAbstractEventDispatcher::instance())
      QObject::connect(d, &QAbstractEventDispatcher::awake, d, []() { g().iteration++; },
                       Qt::DirectConnection);
    /* items created by the QML after the first frames (Loader, Repeater delegates) */
    QTimer::singleShot(500, qApp, []() { scanWindows(); });
  }
  s.clock.start();
  s.running = true;
#ifdef QT_WIDGETS_LIB
  for (Window &w : s.windows)
    if (QWidget *tlw = qobject_cast<QWidget *>(w.object))
      if (!tlw->isVisible()) tlw->show();
#endif
  QTimer::singleShot(int(s.seconds * 1000), Qt::PreciseTimer, qApp,
                     []() { QCoreApplication::quit(); });
  QCoreApplication::exec();
  s.running = false;
  if (s.selfcheck) {
    qApp->removeEventFilter(s.filter);
    printSelfcheck();
  }
  printf("%s: done\n", s.prog);
  fflush(stdout);
  return 0;
}

#ifdef QT_QUICK_LIB
/* main() of a program written in QML: `qml` (its Window objects are watched), the context property
 * "cause" (qmlProbe), and `setup` (registers the program's C++ types) before loading. */
int qmlMain(int argc, char **argv, const char *name, const char *qml,
            void (*setup)(QQmlApplicationEngine &)) {
  init(name);
  QGuiApplication app(argc, argv);
  QQmlApplicationEngine engine;
  engine.rootContext()->setContextProperty(QStringLiteral("cause"), qmlProbe());
  if (setup) setup(engine);
  engine.loadData(QByteArray(qml), QUrl(QStringLiteral("qrc:/%1.qml").arg(QLatin1String(name))));
  if (engine.rootObjects().isEmpty()) {
    fprintf(stderr, "%s: the QML did not load\n", programName());
    return 1;
  }
  watchQml(engine);
  return run();
}
#endif

} // namespace cause
