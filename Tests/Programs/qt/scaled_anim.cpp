// LOOPHUNTER-TRUTH: healthy
// QT-MODULES: Widgets
/* scaled_anim.cpp — a 16 ms timer reads a track's width and moves a thumb inside it.
 *
 * A seek bar: a track (QFrame "track", stretched by a QHBoxLayout) and a thumb (QFrame "thumb", a
 * child of the track, placed by hand). A 16 ms QTimer reads the track's width and sets the thumb's
 * geometry to (width - 20) x a triangle wave of the time: it reads the layout's result every tick,
 * like jitter.cpp, but the track's width never depends on the thumb (the thumb is not in the
 * track's layout), so nothing feeds back: the thumb moves 60 times a second, driven by time.
 * Drives: every timer tick.
 */
#include "qtcauses.h"

#include <QFrame>
#include <QHBoxLayout>

int main(int argc, char **argv) {
  cause::init("scaled-anim");
  QApplication app(argc, argv);
  QWidget window;
  window.setObjectName("main-window");
  window.setWindowTitle(cause::programName());
  auto *row = new QHBoxLayout(&window);
  auto *track = new QFrame;
  track->setObjectName("track");
  track->setFrameShape(QFrame::StyledPanel);
  track->setMinimumHeight(24);
  auto *thumb = new QFrame(track);
  thumb->setObjectName("thumb");
  thumb->setFrameShape(QFrame::Box);
  thumb->setGeometry(0, 2, 20, 20);
  row->addWidget(track);
  window.resize(360, 50);

  QTimer tick;
  QObject::connect(&tick, &QTimer::timeout, thumb, [track, thumb]() {
    const double wave = cause::triangleWave(2.0);
    cause::drive(thumb);
    thumb->setGeometry(int((track->width() - 20) * wave), 2, 20, 20);
  });
  tick.start(16);
  cause::watchWidgetWindow(&window);
  return cause::run();
}
