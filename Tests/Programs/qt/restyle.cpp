// LOOPHUNTER-TRUTH: loop object=StatusBar,QLabel name=statusbar,status cause=in-layout function=refresh_status_style
// QT-MODULES: Widgets
/* restyle.cpp — a status bar re-applies its label's style sheet after every layout; no size changes.
 *
 * A status bar (StatusBar, a QWidget subclass with a QHBoxLayout) handles QEvent::LayoutRequest:
 * after its layout ran (QWidget::event), it "refreshes" the status label's look by setting the
 * style sheet for the current state — the one it already has. QWidget::setStyleSheet() does not
 * compare: it re-polishes the label, whose StyleChange calls updateGeometry(), which posts a new
 * LayoutRequest to the status bar: its layout runs again in every event-loop iteration, forever,
 * and no widget ever changes size (the Qt cousin of GTK's same-text loop).
 * Re-requesting function: refresh_status_style (called from StatusBar::event).
 */
#include "qtcauses.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

static const char kSheet[] = "QLabel { color: #205020; font-weight: bold; }";

class StatusBar : public QWidget {
  Q_OBJECT
public:
  QLabel *status = nullptr;

protected:
  bool event(QEvent *e) override;
};

/* The bug: re-applies the state's style after every layout, though it did not change. */
__attribute__((noinline)) void refresh_status_style(StatusBar *bar) {
  cause::rerequest();
  bar->status->setStyleSheet(QString::fromLatin1(kSheet));
}

bool StatusBar::event(QEvent *e) {
  const bool handled = QWidget::event(e);
  if (e->type() == QEvent::LayoutRequest) refresh_status_style(this);
  return handled;
}

int main(int argc, char **argv) {
  cause::init("restyle");
  QApplication app(argc, argv);
  QWidget window;
  window.setObjectName("main-window");
  window.setWindowTitle(cause::programName());
  auto *column = new QVBoxLayout(&window);
  column->addStretch(1);
  auto *bar = new StatusBar;
  bar->setObjectName("statusbar");
  auto *row = new QHBoxLayout(bar);
  auto *status = new QLabel("Synced 2 minutes ago");
  status->setObjectName("status");
  status->setStyleSheet(QString::fromLatin1(kSheet));
  bar->status = status;
  row->addWidget(status);
  row->addStretch(1);
  column->addWidget(bar);
  window.resize(360, 80);
  cause::watchWidgetWindow(&window);
  return cause::run();
}

#include "restyle.moc"
