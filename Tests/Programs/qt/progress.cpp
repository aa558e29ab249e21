// LOOPHUNTER-TRUTH: healthy
// QT-MODULES: Widgets
/* progress.cpp — a determinate progress bar advanced by a timer, a busy bar, a percentage label.
 *
 * A copy dialog: a QProgressBar ("copy-bar") whose value and text ("37 %") a 16 ms QTimer
 * advances (wrapping at 100), a label ("copy-status") rewritten with the file being copied (many
 * small files: a new one every tick) and the percentage by the same timer (its width varies),
 * and an indeterminate QProgressBar ("busy-bar", range 0..0: the style animates it). Everything
 * that relayouts is driven by the timer (and the busy bar only repaints).
 * Drives: every timer tick.
 */
#include "qtcauses.h"

#include <QLabel>
#include <QProgressBar>
#include <QVBoxLayout>

int main(int argc, char **argv) {
  cause::init("progress");
  QApplication app(argc, argv);
  QWidget window;
  window.setObjectName("main-window");
  window.setWindowTitle(cause::programName());
  auto *column = new QVBoxLayout(&window);
  column->setSizeConstraint(QLayout::SetNoConstraint); /* the window keeps its size */
  auto *status = new QLabel("Copying");
  status->setObjectName("copy-status");
  column->addWidget(status, 0, Qt::AlignLeft);
  auto *copy = new QProgressBar;
  copy->setObjectName("copy-bar");
  copy->setRange(0, 100);
  copy->setFormat("%p %");
  column->addWidget(copy);
  auto *busy = new QProgressBar;
  busy->setObjectName("busy-bar");
  busy->setRange(0, 0);
  column->addWidget(busy);
  column->addStretch(1);
  window.resize(360, 140);

  static const char *const files[] = {"a.txt", "holiday-photos-2023.tar", "notes.md",
                                      "thesis-final-v3-really-final.pdf"};
  QTimer tick;
  int n = 0;
  QObject::connect(&tick, &QTimer::timeout, copy, [&n, copy, status]() {
    n++;
    cause::drive(copy);
    copy->setValue(n % 101);
    status->setText(QStringLiteral("Copying %1 (%2 %)")
                        .arg(QString::fromLatin1(files[n % 4]))
                        .arg(n % 101));
  });
  tick.start(16);
  cause::watchWidgetWindow(&window);
  return cause::run();
}
