// LOOPHUNTER-TRUTH: healthy
// QT-MODULES: Widgets
/* window_resize.cpp — a top-level window resized by a 50 ms timer, forever.
 *
 * A window with a word-wrapping paragraph ("paragraph") and a button row in a QVBoxLayout. A 50 ms
 * QTimer resizes the window (QWidget::resize) with its right edge moving between 300 and 500 px
 * (a triangle wave, period 2 s), as a user dragging its border would: the window and its layout
 * (the paragraph re-wraps) are relaid out 20 times a second, driven by time, never by layout.
 * Drives: every timer tick.
 */
#include "qtcauses.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

int main(int argc, char **argv) {
  cause::init("window-resize");
  QApplication app(argc, argv);
  QWidget window;
  window.setObjectName("main-window");
  window.setWindowTitle(cause::programName());
  auto *column = new QVBoxLayout(&window);
  auto *paragraph = new QLabel(
      "Resizing a window re-wraps this paragraph: the layout recomputes its height for each "
      "new width, and the buttons below move to stay at the bottom right.");
  paragraph->setObjectName("paragraph");
  paragraph->setWordWrap(true);
  column->addWidget(paragraph);
  column->addStretch(1);
  auto *buttons = new QHBoxLayout;
  buttons->addStretch(1);
  buttons->addWidget(new QPushButton("Cancel"));
  buttons->addWidget(new QPushButton("OK"));
  column->addLayout(buttons);
  window.resize(300, 200);

  cause::resizeWindowWidth(&window, 300, 500, 200);
  cause::watchWidgetWindow(&window);
  return cause::run();
}
