// LOOPHUNTER-TRUTH: healthy
// QT-MODULES: Widgets
/* blink_restart.cpp — a "recording" indicator started by its first layout blinks forever by
 * restarting a single-shot timer from its own timeout.
 *
 * A status row: a recording indicator (Blinker, a QLabel subclass) and a stretch. The indicator
 * starts blinking once it has a size: its first resizeEvent (layout) starts a single-shot 150 ms
 * QTimer member, whose timeout swaps the text between "REC" and "REC ●" (a new size hint: the row
 * is laid out again) and starts the timer again. Every blink is a callback scheduled by the
 * previous one, in a chain that layout began once: the row relayouts about 7 times a second,
 * driven by time. Drives: every timeout.
 */
#include "qtcauses.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QResizeEvent>

class Blinker : public QLabel {
  Q_OBJECT
public:
  QTimer blink;
  bool started = false;
  Blinker() : QLabel(QStringLiteral("REC")) {
    blink.setSingleShot(true);
    blink.setInterval(150);
    connect(&blink, &QTimer::timeout, this, [this]() {
      cause::drive(this);
      setText(text() == QStringLiteral("REC") ? QStringLiteral("REC \u25cf") : QStringLiteral("REC"));
      blink.start();
    });
  }

protected:
  void resizeEvent(QResizeEvent *e) override {
    QLabel::resizeEvent(e);
    if (started) return;
    started = true;
    blink.start();
  }
};

int main(int argc, char **argv) {
  cause::init("blink-restart");
  QApplication app(argc, argv);
  QWidget window;
  window.setObjectName("main-window");
  window.setWindowTitle(cause::programName());
  auto *row = new QHBoxLayout(&window);
  row->setSizeConstraint(QLayout::SetNoConstraint); /* the window keeps its 300 px */
  auto *blinker = new Blinker;
  blinker->setObjectName("recording");
  row->addWidget(blinker);
  row->addStretch(1);
  window.resize(300, 60);
  cause::watchWidgetWindow(&window);
  return cause::run();
}

#include "blink_restart.moc"
