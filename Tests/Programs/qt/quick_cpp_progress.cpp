// LOOPHUNTER-TRUTH: healthy
// QT-MODULES: Quick
/* quick_cpp_progress.cpp — a C++ timer sizes a progress meter from its row's width, while the window
 * is resized.
 *
 * A QML Window whose width a 50 ms Timer moves between 300 and 500 px (a triangle wave, period
 * 2 s) holds a RowLayout "row": a progress meter "progress" sized by its implicit width, a spacer
 * and a fixed-width label. A 16 ms QTimer of the program reads the row's width through
 * QQuickItem::width() and sets the meter's implicit width to (width - 90) x the progress, which
 * goes from 0 to 1 and back every 3 s: the row lays out again at every tick, right after its width
 * was read. It reads its own layout's result at every tick, like `quick_cpp_jitter`, yet no loop:
 * the row follows the window and the meter the clock. Drives: every Timer tick.
 */
#include "qtcauses.h"

#include <QQuickItem>

static const char kQml[] = R"QML(
import QtQuick 2.15
import QtQuick.Layouts 1.15
import QtQuick.Window 2.15

Window {
    id: win
    objectName: "main-window"
    title: "quick-cpp-progress"
    visible: true
    width: 300
    height: 60

    RowLayout {
        objectName: "row"
        anchors.fill: parent
        anchors.margins: 8
        Rectangle {
            objectName: "progress"
            color: "steelblue"
            implicitWidth: 0
            implicitHeight: 20
        }
        Item { Layout.fillWidth: true }
        Text {
            objectName: "label"
            text: "copying"
            Layout.preferredWidth: 70
        }
    }
    Timer {
        interval: 50; repeat: true; running: true
        property real t: 0
        onTriggered: {
            t += 0.05
            var phase = (t / 2) % 1
            cause.drives += 1
            win.width = 300 + Math.round(200 * (phase < 0.5 ? 2 * phase : 2 - 2 * phase))
        }
    }
}
)QML";

__attribute__((noinline)) static void size_progress(QQuickItem *row, QQuickItem *progress) {
  const double done = cause::triangleWave(3.0);
  progress->setImplicitWidth(qMax(0.0, row->width() - 90) * done);
}

static void setup(QQmlApplicationEngine &engine) {
  auto *tick = new QTimer(&engine);
  QObject::connect(tick, &QTimer::timeout, &engine, [&engine]() {
    const auto roots = engine.rootObjects();
    QObject *root = roots.isEmpty() ? nullptr : roots.first();
    auto *row = root != nullptr ? root->findChild<QQuickItem *>("row") : nullptr;
    auto *progress = root != nullptr ? root->findChild<QQuickItem *>("progress") : nullptr;
    if (row != nullptr && progress != nullptr) size_progress(row, progress);
  });
  tick->start(16);
}

int main(int argc, char **argv) { return cause::qmlMain(argc, argv, "quick-cpp-progress", kQml, setup); }
