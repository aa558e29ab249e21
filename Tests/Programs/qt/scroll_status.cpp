// LOOPHUNTER-TRUTH: healthy
// QT-MODULES: Widgets
/* scroll_status.cpp — a window resized every 50 ms whose scroll area reports its viewport through a
 * queued signal.
 *
 * A picture viewer: a 420 x 260 picture ("picture") in a QScrollArea subclass ("pictures",
 * scrollbars as needed) above a status row with a fixed-width label ("viewport-status"). A 50 ms
 * timer resizes the window between 300 and 520 px wide (a triangle wave, period 2 s), so the
 * horizontal scrollbar comes and goes as the viewport crosses the picture's width: QScrollBar's
 * rangeChanged, emitted while the scroll area is laid out, reaches QAbstractScrollArea's own queued
 * connection, which lays the scrollbars and the viewport out again in the next iteration. The
 * scroll area's resizeEvent (layout) emits its own viewportResized signal, connected to the status
 * label with Qt::QueuedConnection: the label's text ("viewport 402 x 244") changes in the next
 * iteration and its row is laid out again, but the label's width is fixed, so nothing it does
 * resizes the scroll area: every chain of queued calls started in layout ends after one step.
 * Drives: every timer tick.
 */
#include "qtcauses.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QResizeEvent>
#include <QScrollArea>
#include <QVBoxLayout>

class ViewportArea : public QScrollArea {
  Q_OBJECT
public:
  using QScrollArea::QScrollArea;

signals:
  void viewportResized(int width, int height);

protected:
  void resizeEvent(QResizeEvent *e) override {
    QScrollArea::resizeEvent(e);
    emit viewportResized(viewport()->width(), viewport()->height());
  }
};

int main(int argc, char **argv) {
  cause::init("scroll-status");
  QApplication app(argc, argv);
  QWidget window;
  window.setObjectName("main-window");
  window.setWindowTitle(cause::programName());
  auto *column = new QVBoxLayout(&window);
  auto *area = new ViewportArea;
  area->setObjectName("pictures");
  auto *picture = new QLabel("a 420 x 260 picture");
  picture->setObjectName("picture");
  picture->setAlignment(Qt::AlignCenter);
  picture->setFixedSize(420, 260);
  area->setWidget(picture);
  column->addWidget(area, 1);
  auto *row = new QHBoxLayout;
  auto *status = new QLabel("viewport");
  status->setObjectName("viewport-status");
  status->setFixedWidth(220);
  row->addWidget(status);
  row->addStretch(1);
  column->addLayout(row);
  QObject::connect(
      area, &ViewportArea::viewportResized, status,
      [status](int width, int height) { status->setText(QString("viewport %1 x %2").arg(width).arg(height)); },
      Qt::QueuedConnection);
  window.resize(300, 320);

  cause::resizeWindowWidth(&window, 300, 520, 320);
  cause::watchWidgetWindow(&window);
  return cause::run();
}

#include "scroll_status.moc"
