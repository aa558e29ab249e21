// LOOPHUNTER-TRUTH: healthy
// QT-MODULES: Widgets
/* restyle_timer.cpp — a 50 ms timer re-applies a label's style sheet, the one it already has.
 *
 * The same calls as restyle.cpp (QWidget::setStyleSheet() with an identical sheet re-polishes the
 * label and relayouts its status bar, no size changes), made from outside layout: a 50 ms QTimer
 * "refreshing the theme". 20 relayouts a second, driven by time, never by layout.
 * Drives: every timer tick.
 */
#include "qtcauses.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

static const char kSheet[] = "QLabel { color: #205020; font-weight: bold; }";

int main(int argc, char **argv) {
  cause::init("restyle-timer");
  QApplication app(argc, argv);
  QWidget window;
  window.setObjectName("main-window");
  window.setWindowTitle(cause::programName());
  auto *column = new QVBoxLayout(&window);
  column->addStretch(1);
  auto *bar = new QWidget;
  bar->setObjectName("statusbar");
  auto *row = new QHBoxLayout(bar);
  auto *status = new QLabel("Synced 2 minutes ago");
  status->setObjectName("status");
  status->setStyleSheet(QString::fromLatin1(kSheet));
  row->addWidget(status);
  row->addStretch(1);
  column->addWidget(bar);
  window.resize(360, 80);

  QTimer theme;
  QObject::connect(&theme, &QTimer::timeout, status, [status]() {
    cause::drive(status);
    status->setStyleSheet(QString::fromLatin1(kSheet));
  });
  theme.start(50);
  cause::watchWidgetWindow(&window);
  return cause::run();
}
