// LOOPHUNTER-TRUTH: healthy
// QT-MODULES: Widgets
/* splitter_move.cpp — a QSplitter whose handle a 16 ms timer moves, forever.
 *
 * A mail window: a QSplitter ("splitter", a subclass that exposes QSplitter::moveSplitter) with a
 * folder list and a message pane (a word-wrapping label in a layout). A 16 ms QTimer moves the
 * handle to 160 + 100 * sin(2 pi t / 2 s) with moveSplitter(), as a drag would: both panes are
 * resized and relaid out on every tick, driven by time, never by layout.
 * Drives: every tick that moves the handle.
 */
#include "qtcauses.h"

#include <QLabel>
#include <QListWidget>
#include <QSplitter>
#include <QVBoxLayout>
#include <cmath>

class DragSplitter : public QSplitter {
  Q_OBJECT
public:
  using QSplitter::QSplitter;
  void drag(int pos) { moveSplitter(pos, 1); }
};

int main(int argc, char **argv) {
  cause::init("splitter-move");
  QApplication app(argc, argv);
  QWidget window;
  window.setObjectName("main-window");
  window.setWindowTitle(cause::programName());
  auto *column = new QVBoxLayout(&window);
  auto *splitter = new DragSplitter(Qt::Horizontal);
  splitter->setObjectName("splitter");
  auto *folders = new QListWidget;
  folders->setObjectName("folders");
  folders->addItems({"Inbox", "Drafts", "Sent", "Archive", "Spam", "Trash"});
  auto *pane = new QWidget;
  pane->setObjectName("message-pane");
  auto *paneLayout = new QVBoxLayout(pane);
  auto *body = new QLabel(
      "Hello team, the quarterly numbers are in and they look better than expected. "
      "Please review the attached report before Thursday's meeting.");
  body->setObjectName("message");
  body->setWordWrap(true);
  paneLayout->addWidget(body);
  paneLayout->addStretch(1);
  splitter->addWidget(folders);
  splitter->addWidget(pane);
  column->addWidget(splitter);
  window.resize(520, 260);

  QTimer drag;
  QObject::connect(&drag, &QTimer::timeout, splitter, [splitter]() {
    const int pos = int(160 + 100 * std::sin(2 * M_PI * cause::elapsed() / 2.0));
    cause::drive(splitter);
    splitter->drag(pos);
  });
  drag.start(16);
  cause::watchWidgetWindow(&window);
  return cause::run();
}

#include "splitter_move.moc"
