// Qt's own warnings about layout: not a program of the loop corpus (no truth line), QtWarningsTests.
// QT-MODULES: Widgets Quick
/* warnings.cpp — makes Qt warn about layout three ways, with a message handler of its own installed
 * before the application (as many programs do), and says how many messages that handler saw:
 *   - QLayout: a second layout set on a widget that has one ("QLayout: Attempting to add QLayout
 *     ... which already has a layout");
 *   - the QML engine: a binding loop between two items' widths ("Binding loop detected for property
 *     \"width\"");
 *   - Qt Quick: an item (SelfPolish, "self-polish") whose updatePolish() polishes it again, 1,500
 *     times in one frame ("possible QQuickItem::polish() loop" after 1,000), then stops.
 * Prints "warnings: N messages handled" (the program's own handler's count) and exits 0.
 */
#include <QApplication>
#include <QHBoxLayout>
#include <QQmlComponent>
#include <QQmlEngine>
#include <QQuickItem>
#include <QQuickWindow>
#include <QTimer>
#include <QVBoxLayout>
#include <cstdio>

static int handled;
static QtMessageHandler previous;

static void count_messages(QtMsgType type, const QMessageLogContext &context, const QString &message) {
  handled++;
  if (previous) previous(type, context, message);
}

class SelfPolish : public QQuickItem {
public:
  int polishes = 0;

protected:
  void updatePolish() override {
    if (++polishes < 1500) polish();
  }
};

int main(int argc, char **argv) {
  previous = qInstallMessageHandler(count_messages);
  QApplication app(argc, argv);

  QWidget widget;
  widget.setObjectName("twice-laid-out");
  new QHBoxLayout(&widget);
  new QVBoxLayout(&widget); /* QLayout's warning */

  QQmlEngine engine;
  QQmlComponent component(&engine);
  component.setData("import QtQuick 2.15\n"
                    "Item { id: a; objectName: \"outer\"; width: b.width + 1\n"
                    "  Item { id: b; objectName: \"inner\"; width: a.width } }\n",
                    QUrl(QStringLiteral("qrc:/binding-loop.qml")));
  QObject *bound = component.create(); /* the QML engine's warning */

  QQuickWindow window;
  window.setObjectName("polish-window");
  auto *item = new SelfPolish;
  item->setObjectName("self-polish");
  item->setSize(QSizeF(100, 100));
  item->setParentItem(window.contentItem());
  window.resize(200, 200);
  window.show();
  item->polish(); /* Qt Quick's warning, in the next frame */

  QTimer::singleShot(1500, &app, &QApplication::quit);
  int status = app.exec();
  delete bound;
  std::printf("warnings: %d messages handled\n", handled);
  return status;
}
