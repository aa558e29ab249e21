// LOOPHUNTER-TRUTH: healthy
// QT-MODULES: Widgets
/* text_append.cpp — a 10 ms timer appends a line to a log view and keeps it scrolled to the end.
 *
 * A build log: a QPlainTextEdit ("log") gets a line appended by a 10 ms QTimer
 * (appendPlainText, which scrolls to the end when the view is at the end): the document grows,
 * the scrollbar range and position change and the view relayouts its text on every tick, driven
 * by time, never by layout. A status label ("current-file", the line number and the file being
 * compiled: its width varies) is rewritten on the same tick.
 * Drives: every timer tick.
 */
#include "qtcauses.h"

#include <QLabel>
#include <QPlainTextEdit>
#include <QVBoxLayout>

int main(int argc, char **argv) {
  cause::init("text-append");
  QApplication app(argc, argv);
  QWidget window;
  window.setObjectName("main-window");
  window.setWindowTitle(cause::programName());
  auto *column = new QVBoxLayout(&window);
  column->setSizeConstraint(QLayout::SetNoConstraint); /* the window keeps its size */
  auto *log = new QPlainTextEdit;
  log->setObjectName("log");
  log->setReadOnly(true);
  column->addWidget(log);
  auto *count = new QLabel("Starting");
  count->setObjectName("current-file");
  column->addWidget(count, 0, Qt::AlignLeft);
  window.resize(420, 240);

  QTimer append;
  int n = 0;
  QObject::connect(&append, &QTimer::timeout, log, [&n, log, count]() {
    n++;
    cause::drive(log);
    log->appendPlainText(QStringLiteral("[%1] compiling src/module_%2.cpp (%3 warnings)")
                             .arg(n, 5)
                             .arg(n % 97)
                             .arg(n % 7));
    static const char *const files[] = {"io.cpp", "network/http_client.cpp", "ui/main_window.cpp",
                                        "db.cpp", "plugins/spell_checker/dictionary.cpp"};
    count->setText(QStringLiteral("%1: %2").arg(n).arg(QString::fromLatin1(files[n % 5])));
  });
  append.start(10);
  cause::watchWidgetWindow(&window);
  return cause::run();
}
