// LOOPHUNTER-TRUTH: healthy
// QT-MODULES: Widgets
/* idle.cpp — nothing: a window with a label. The floor of the iteration, frame and CPU figures,
 * and a program that must get no report.
 */
#include "qtcauses.h"

#include <QLabel>
#include <QVBoxLayout>

int main(int argc, char **argv) {
  cause::init("idle");
  QApplication app(argc, argv);
  QWidget window;
  window.setObjectName("main-window");
  window.setWindowTitle(cause::programName());
  auto *column = new QVBoxLayout(&window);
  auto *message = new QLabel("Nothing to do.");
  message->setObjectName("message");
  column->addWidget(message);
  window.resize(300, 80);
  cause::watchWidgetWindow(&window);
  return cause::run();
}
