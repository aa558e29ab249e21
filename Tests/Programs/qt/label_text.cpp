// LOOPHUNTER-TRUTH: healthy
// QT-MODULES: Widgets
/* label_text.cpp — labels whose text a timer changes: every 100 ms and every 16 ms.
 *
 * A status bar with a clock label ("clock", rewritten every 100 ms with the elapsed time) and a
 * throughput label ("rate", rewritten every 16 ms with a jittery number of varying width: 10 to
 * 10,000 KB/s), left-aligned in a QHBoxLayout so that each text change relayouts the row (and
 * most resize the label). Driven by time, never by layout: no text depends on a size.
 * Drives: every tick of either timer.
 */
#include "qtcauses.h"

#include <QHBoxLayout>
#include <QLabel>
#include <cmath>

int main(int argc, char **argv) {
  cause::init("label-text");
  QApplication app(argc, argv);
  QWidget window;
  window.setObjectName("main-window");
  window.setWindowTitle(cause::programName());
  auto *row = new QHBoxLayout(&window);
  row->setSizeConstraint(QLayout::SetNoConstraint);
  auto *clock = new QLabel("0.0 s");
  clock->setObjectName("clock");
  auto *rate = new QLabel("0 KB/s");
  rate->setObjectName("rate");
  row->addWidget(clock, 0, Qt::AlignLeft);
  row->addWidget(rate, 0, Qt::AlignLeft);
  row->addStretch(1);
  window.resize(360, 50);

  QTimer clockTick, rateTick;
  QObject::connect(&clockTick, &QTimer::timeout, clock, [clock]() {
    cause::drive(clock);
    clock->setText(QStringLiteral("%1 s").arg(cause::elapsed(), 0, 'f', 1));
  });
  QObject::connect(&rateTick, &QTimer::timeout, rate, [rate]() {
    /* a jittery measurement: 10 to 10,000 KB/s, a different number of digits most ticks */
    const double noise =
        std::fmod(std::fabs(std::sin(cause::elapsed() * 12.9898) * 43758.5453), 1.0);
    const int kb = int(std::pow(10.0, 1 + 3 * noise));
    cause::drive(rate);
    rate->setText(QStringLiteral("%1 KB/s").arg(kb));
  });
  clockTick.start(100);
  rateTick.start(16);
  cause::watchWidgetWindow(&window);
  return cause::run();
}
