// LOOPHUNTER-TRUTH: healthy
// QT-MODULES: Widgets
/* square_keeper.cpp — a preview kept square by a 16 ms timer that reads its width, while the
 * window is resized every 50 ms.
 *
 * A photo preview (QFrame "preview") fills a row whose width a 50 ms timer drives between 320 and
 * 520 px (a triangle wave, period 2 s). A 16 ms QTimer keeps it square: it reads the width the
 * preview got (QWidget::width(), inline: a plain read of the widget's geometry) and sets that as
 * its fixed height (a layout request whenever the width moved). The height never changes the
 * width: the preview follows the window, one relayout per drive. Reads its own layout's result
 * every tick, yet no loop: the sizes follow the clock. Drives: every resize of the window.
 */
#include "qtcauses.h"

#include <QFrame>
#include <QHBoxLayout>

__attribute__((noinline)) static void keep_square(QFrame *preview) {
  const int w = preview->width();
  if (preview->height() == w) return;
  cause::note("preview %d -> height %d", preview->height(), w);
  preview->setFixedHeight(w);
}

int main(int argc, char **argv) {
  cause::init("square-keeper");
  QApplication app(argc, argv);
  QWidget window;
  window.setObjectName("main-window");
  window.setWindowTitle(cause::programName());
  auto *row = new QHBoxLayout(&window);
  row->setSizeConstraint(QLayout::SetNoConstraint); /* the timer alone sizes the window */
  auto *preview = new QFrame;
  preview->setObjectName("preview");
  preview->setFrameShape(QFrame::Box);
  row->addWidget(preview, 1, Qt::AlignTop);
  window.resize(320, 560);
  QTimer square;
  QObject::connect(&square, &QTimer::timeout, preview, [preview]() { keep_square(preview); });
  square.start(16);
  cause::resizeWindowWidth(&window, 320, 520, 560);
  cause::watchWidgetWindow(&window);
  return cause::run();
}
