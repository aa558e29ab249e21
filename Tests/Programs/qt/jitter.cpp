// LOOPHUNTER-TRUTH: loop object=QFrame name=meter cause=result function=jitter_sync
// QT-MODULES: Widgets
/* jitter.cpp — a 16 ms timer snaps a meter's width to what it got, off by one, forever.
 *
 * A level meter (QFrame "meter", left-aligned in a row) is kept "in sync" with its own layout by a
 * 16 ms QTimer started at start-up: it reads the width the meter got and sets that as the
 * meter's fixed width, rounded to even with an off-by-one (odd widths up, even widths down). No
 * callback is born in layout: the timer reads the layout's result and re-requests, and the width
 * alternates 200 <-> 199 on every tick, forever. Re-requesting function: jitter_sync.
 */
#include "qtcauses.h"

#include <QFrame>
#include <QHBoxLayout>

/* The bug: the meter's width request is derived from the width it got. */
__attribute__((noinline)) void jitter_sync(QFrame *meter) {
  const int w = meter->width();
  const int want = (w % 2) ? w + 1 : w - 1;
  cause::note("meter %d -> %d", w, want);
  cause::rerequest();
  meter->setFixedWidth(want);
}

int main(int argc, char **argv) {
  cause::init("jitter");
  QApplication app(argc, argv);
  QWidget window;
  window.setObjectName("main-window");
  window.setWindowTitle(cause::programName());
  auto *row = new QHBoxLayout(&window);
  row->setSizeConstraint(QLayout::SetNoConstraint);
  auto *meter = new QFrame;
  meter->setObjectName("meter");
  meter->setFrameShape(QFrame::Box);
  meter->setFixedWidth(200);
  row->addWidget(meter, 0, Qt::AlignLeft);
  row->addStretch(1);
  window.resize(320, 60);
  QTimer sync;
  QObject::connect(&sync, &QTimer::timeout, meter, [meter]() { jitter_sync(meter); });
  sync.start(16);
  cause::watchWidgetWindow(&window);
  return cause::run();
}
