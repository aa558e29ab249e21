// LOOPHUNTER-TRUTH: loop object=LogView,QWidget name=log-view cause=deferred function=grow_timeout
// QT-MODULES: Widgets
/* grow.cpp — a log view that asks for a few pixels more than it got, every time, without end.
 *
 * A log view (LogView, a QWidget subclass that paints its lines) sits in a QScrollArea
 * (widgetResizable). After each resize it wants "one more line of slack below the last line" and
 * asks for it with a zero timer added in its resizeEvent: setMinimumHeight(height() + 3). The
 * scroll area gives it exactly that, which is again 3 px short of the slack: the view grows by
 * 3 px per layout pass, forever (the window does not grow: the scroll area scrolls).
 * Re-requesting function: grow_timeout.
 */
#include "qtcauses.h"

#include <QPainter>
#include <QResizeEvent>
#include <QScrollArea>
#include <QVBoxLayout>

class LogView : public QWidget {
  Q_OBJECT
public:
  bool scheduled = false;

protected:
  void resizeEvent(QResizeEvent *e) override;
  void paintEvent(QPaintEvent *e) override {
    QPainter p(this);
    const int line = fontMetrics().height();
    const QRect r = e->rect();
    for (int y = (r.top() / line) * line; y < r.bottom() + line; y += line)
      p.drawText(4, y + fontMetrics().ascent(),
                 QStringLiteral("line %1: request served").arg(y / line));
  }
};

/* The bug: the wanted height is computed from the height it produced. */
__attribute__((noinline)) void grow_timeout(LogView *view) {
  view->scheduled = false;
  cause::rerequest();
  view->setMinimumHeight(view->height() + 3);
}

void LogView::resizeEvent(QResizeEvent *e) {
  QWidget::resizeEvent(e);
  if (scheduled) return;
  scheduled = true;
  QTimer::singleShot(0, this, [this]() { grow_timeout(this); });
}

int main(int argc, char **argv) {
  cause::init("grow");
  QApplication app(argc, argv);
  QWidget window;
  window.setObjectName("main-window");
  window.setWindowTitle(cause::programName());
  auto *column = new QVBoxLayout(&window);
  column->setSizeConstraint(QLayout::SetNoConstraint);
  auto *scroller = new QScrollArea;
  scroller->setObjectName("log-scroller");
  scroller->setWidgetResizable(true);
  auto *view = new LogView;
  view->setObjectName("log-view");
  view->setMinimumHeight(200);
  scroller->setWidget(view);
  column->addWidget(scroller);
  window.resize(360, 240);
  cause::watchWidgetWindow(&window);
  return cause::run();
}

#include "grow.moc"
