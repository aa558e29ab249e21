// LOOPHUNTER-TRUTH: loop object=QQuickRowLayout,QQuickRectangle name=row,meter cause=result function=sync_meter
// QT-MODULES: Quick
/* quick_cpp_jitter.cpp — a 16 ms C++ timer snaps a QML meter's implicit width to the width it got,
 * off by one, forever.
 *
 * `jitter`, written in C++ against a QML scene: a level meter (a Rectangle "meter" in a RowLayout
 * "row", sized by its implicitWidth) is kept "in sync" with its own layout by a repeating 16 ms
 * QTimer of the program: it reads the width the meter got through QQuickItem::width() and sets
 * that, rounded with an off-by-one (odd widths up, even widths down), as the meter's implicit
 * width, which makes the RowLayout lay out again. No callback is born in layout: the timer reads
 * the layout's result and re-requests; the width alternates 200 <-> 199 on every tick, forever.
 * Re-requesting function: sync_meter.
 */
#include "qtcauses.h"

#include <QQuickItem>

static const char kQml[] = R"QML(
import QtQuick 2.15
import QtQuick.Layouts 1.15
import QtQuick.Window 2.15

Window {
    objectName: "main-window"
    title: "quick-cpp-jitter"
    visible: true
    width: 320
    height: 60

    RowLayout {
        objectName: "row"
        anchors.fill: parent
        anchors.margins: 8
        Rectangle {
            objectName: "meter"
            color: "steelblue"
            implicitWidth: 200
            implicitHeight: 20
        }
        Item { Layout.fillWidth: true }
    }
}
)QML";

/* The bug: the meter's width request is derived from the width it got. */
__attribute__((noinline)) void sync_meter(QQuickItem *meter) {
  const int w = qRound(meter->width());
  cause::rerequest();
  meter->setImplicitWidth((w % 2) ? w + 1 : w - 1);
}

static void setup(QQmlApplicationEngine &engine) {
  auto *sync = new QTimer(&engine);
  QObject::connect(sync, &QTimer::timeout, &engine, [&engine]() {
    const auto roots = engine.rootObjects();
    auto *meter = roots.isEmpty() ? nullptr : roots.first()->findChild<QQuickItem *>("meter");
    if (meter != nullptr) sync_meter(meter);
  });
  sync->start(16);
}

int main(int argc, char **argv) { return cause::qmlMain(argc, argv, "quick-cpp-jitter", kQml, setup); }
