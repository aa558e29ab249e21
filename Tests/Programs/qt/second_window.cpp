// LOOPHUNTER-TRUTH: loop object=StatusLabel,QLabel name=inspector-status cause=deferred function=inspector_refresh
// QT-MODULES: Widgets
/* second_window.cpp — a loop in a second window while the first window updates at 2 Hz.
 *
 * Window "main-window" is healthy: a clock label rewritten by a 500 ms timer (2 relayouts a
 * second, driven by time). Window "inspector" has the loop: its status label (StatusLabel, a
 * QLabel subclass, left-aligned so it is as wide as its text) picks its text from its own width
 * in its resizeEvent, applied with a queued QMetaObject::invokeMethod: wide -> the compact text,
 * narrow -> the detailed text, so its width alternates and the inspector is laid out in every
 * pass, forever, while the main window is laid out twice a second.
 * Re-requesting function: inspector_refresh.
 */
#include "qtcauses.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QResizeEvent>

static const char kDetailed[] = "Inspecting 14 widgets, 3 with pending style changes";
static const char kCompact[] = "14 widgets";

class StatusLabel : public QLabel {
  Q_OBJECT
public:
  using QLabel::QLabel;
  int threshold = 0;
  bool scheduled = false;

protected:
  void resizeEvent(QResizeEvent *e) override;
};

/* The bug: the status's wording follows its own width. */
__attribute__((noinline)) void inspector_refresh(StatusLabel *status, const char *text) {
  status->scheduled = false;
  cause::rerequest();
  status->setText(QString::fromUtf8(text));
}

void StatusLabel::resizeEvent(QResizeEvent *e) {
  QLabel::resizeEvent(e);
  const char *want = width() >= threshold ? kCompact : kDetailed;
  if (text() == QString::fromUtf8(want) || scheduled) return;
  scheduled = true;
  QMetaObject::invokeMethod(
      this, [this, want]() { inspector_refresh(this, want); }, Qt::QueuedConnection);
}

int main(int argc, char **argv) {
  cause::init("second-window");
  QApplication app(argc, argv);

  QWidget mainWindow;
  mainWindow.setObjectName("main-window");
  mainWindow.setWindowTitle(QStringLiteral("%1: main").arg(cause::programName()));
  auto *mainRow = new QHBoxLayout(&mainWindow);
  mainRow->setSizeConstraint(QLayout::SetNoConstraint);
  auto *clock = new QLabel("Elapsed 0.0 s");
  clock->setObjectName("clock");
  mainRow->addWidget(clock, 0, Qt::AlignLeft);
  mainRow->addStretch(1);
  mainWindow.resize(300, 60);
  QTimer clockTimer;
  QObject::connect(&clockTimer, &QTimer::timeout, clock, [clock]() {
    cause::drive(clock);
    clock->setText(QStringLiteral("Elapsed %1 s").arg(cause::elapsed(), 0, 'f', 1));
  });
  clockTimer.start(500);

  QWidget inspector;
  inspector.setObjectName("inspector");
  inspector.setWindowTitle(QStringLiteral("%1: inspector").arg(cause::programName()));
  auto *row = new QHBoxLayout(&inspector);
  row->setSizeConstraint(QLayout::SetNoConstraint);
  auto *status = new StatusLabel(QString::fromUtf8(kDetailed));
  status->setObjectName("inspector-status");
  const QFontMetrics fm = status->fontMetrics();
  status->threshold = (fm.horizontalAdvance(kDetailed) + fm.horizontalAdvance(kCompact)) / 2;
  row->addWidget(status, 0, Qt::AlignLeft);
  row->addStretch(1);
  inspector.resize(420, 60);

  cause::watchWidgetWindow(&mainWindow);
  cause::watchWidgetWindow(&inspector);
  return cause::run();
}

#include "second_window.moc"
