// LOOPHUNTER-TRUTH: loop object=QQuickRectangle name=meter cause=result function=syncMeter
// QT-MODULES: Quick
/* quick_jitter.cpp — a 16 ms QML Timer snaps a meter's width to what it got, off by one, forever.
 *
 * A level meter (a Rectangle "meter" in a RowLayout, QML embedded below) is kept "in sync" with
 * its own layout by a repeating 16 ms Timer started at start-up: it reads the width the meter got
 * and sets Layout.preferredWidth to it, rounded with an off-by-one (odd widths up, even widths
 * down). No callback is born in layout: the timer reads the layout's result and re-requests; the
 * width alternates 200 <-> 199 on every tick, forever. Re-requesting function: syncMeter (a JS
 * function of the window, called by the Timer's onTriggered).
 */
#include "qtcauses.h"

static const char kQml[] = R"QML(
import QtQuick 2.15
import QtQuick.Layouts 1.15
import QtQuick.Window 2.15

Window {
    objectName: "main-window"
    title: "quick-jitter"
    visible: true
    width: 320
    height: 60

    function syncMeter() {
        var w = Math.round(meter.width)
        cause.rerequests += 1
        meter.Layout.preferredWidth = (w % 2) ? w + 1 : w - 1
    }

    Timer { interval: 16; repeat: true; running: true; onTriggered: syncMeter() }

    RowLayout {
        objectName: "row"
        anchors.fill: parent
        anchors.margins: 8
        Rectangle {
            id: meter
            objectName: "meter"
            color: "steelblue"
            Layout.preferredWidth: 200
            Layout.preferredHeight: 20
        }
        Item { Layout.fillWidth: true }
    }
}
)QML";

int main(int argc, char **argv) { return cause::qmlMain(argc, argv, "quick-jitter", kQml); }
