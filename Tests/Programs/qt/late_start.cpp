// LOOPHUNTER-TRUTH: loop object=StatusLabel,QLabel name=connection cause=deferred function=fit_status_timeout
// QT-MODULES: Widgets
/* late_start.cpp — healthy for 2 s, then a self-fitting status label loops until exit.
 *
 * For the first 2 seconds a "Connecting…" label is rewritten by a 250 ms timer (4 relayouts a
 * second, driven by time). At 2 s the connection "comes up" and the label (StatusLabel, a QLabel
 * subclass, left-aligned so it is as wide as its text) starts fitting its wording to its own
 * width from its resizeEvent, through a zero timer: wide -> the short text, narrow -> the long
 * text, so it is laid out again in every pass from then on. Re-requesting function:
 * fit_status_timeout.
 */
#include "qtcauses.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QResizeEvent>

static const char kLong[] = "Connected to build-42.example.org, 3 jobs queued";
static const char kShort[] = "Online";

class StatusLabel : public QLabel {
  Q_OBJECT
public:
  using QLabel::QLabel;
  bool fitting = false, scheduled = false;
  int threshold = 0;

protected:
  void resizeEvent(QResizeEvent *e) override;
};

/* The bug (from 2 s on): the wording follows the label's own width. */
__attribute__((noinline)) void fit_status_timeout(StatusLabel *label, const char *text) {
  label->scheduled = false;
  cause::rerequest();
  label->setText(QString::fromUtf8(text));
}

void StatusLabel::resizeEvent(QResizeEvent *e) {
  QLabel::resizeEvent(e);
  if (!fitting || scheduled) return;
  const char *want = width() >= threshold ? kShort : kLong;
  if (text() == QString::fromUtf8(want)) return;
  scheduled = true;
  QTimer::singleShot(0, this, [this, want]() { fit_status_timeout(this, want); });
}

int main(int argc, char **argv) {
  cause::init("late-start");
  QApplication app(argc, argv);
  QWidget window;
  window.setObjectName("main-window");
  window.setWindowTitle(cause::programName());
  auto *row = new QHBoxLayout(&window);
  row->setSizeConstraint(QLayout::SetNoConstraint);
  auto *label = new StatusLabel(QStringLiteral("Connecting"));
  label->setObjectName("connection");
  const QFontMetrics fm = label->fontMetrics();
  label->threshold = (fm.horizontalAdvance(kLong) + fm.horizontalAdvance(kShort)) / 2;
  row->addWidget(label, 0, Qt::AlignLeft);
  row->addStretch(1);
  window.resize(420, 60);
  QTimer dots;
  int n = 0;
  QObject::connect(&dots, &QTimer::timeout, label, [label, &n, &dots]() {
    if (cause::elapsed() >= 2.0) { /* connected: from now on the label fits itself */
      dots.stop();
      label->fitting = true;
      cause::drive();
      label->setText(QString::fromUtf8(kLong));
      return;
    }
    cause::drive();
    label->setText(QStringLiteral("Connecting") + QString(++n % 4, QLatin1Char('.')));
  });
  dots.start(250);
  cause::watchWidgetWindow(&window);
  return cause::run();
}

#include "late_start.moc"
