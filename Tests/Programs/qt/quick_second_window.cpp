// LOOPHUNTER-TRUTH: loop object=QQuickText name=inspector-status cause=deferred function=refreshStatus
// QT-MODULES: Quick
/* quick_second_window.cpp — a QML loop in a second window while the first updates at 2 Hz.
 *
 * Two QML Windows (embedded below). "main-window" is healthy: a clock Text rewritten by a 500 ms
 * Timer (2 relayouts a second, driven by time). "inspector" has the loop: a status Text picks its
 * wording from its own width, from onWidthChanged through Qt.callLater: wide -> the compact text,
 * narrow -> the detailed text, so its width alternates and the inspector is laid out in every one
 * of its frames, forever, while the main window shows a relayout twice a second. (Each Window
 * renders its own frames.) Re-requesting function: refreshStatus (a JS function, run by
 * Qt.callLater after the layout that changed the width).
 */
#include "qtcauses.h"

static const char kQml[] = R"QML(
import QtQuick 2.15
import QtQuick.Window 2.15

Window {
    id: mainWindow
    objectName: "main-window"
    title: "quick-second-window: main"
    visible: true
    width: 300
    height: 60

    Text {
        id: clock
        objectName: "clock"
        x: 8; y: 8
        text: "Elapsed 0.0 s"
    }
    Timer {
        interval: 500; repeat: true; running: true
        property real t: 0
        onTriggered: { t += 0.5; cause.drives += 1; clock.text = "Elapsed " + t.toFixed(1) + " s" }
    }

    property Window inspector: Window {
        id: inspectorWindow
        objectName: "inspector"
        title: "quick-second-window: inspector"
        visible: true
        x: 320
        width: 420
        height: 60

        readonly property string detailed: "Inspecting 14 items, 3 with pending bindings"
        readonly property string compact: "14 items"
        readonly property real threshold: (detailedMetrics.advanceWidth + compactMetrics.advanceWidth) / 2

        function refreshStatus() {
            var want = status.width >= threshold ? compact : detailed
            if (status.text === want) return
            cause.rerequests += 1
            status.text = want
        }

        TextMetrics { id: detailedMetrics; font: status.font; text: "Inspecting 14 items, 3 with pending bindings" }
        TextMetrics { id: compactMetrics; font: status.font; text: "14 items" }

        Text {
            id: status
            objectName: "inspector-status"
            x: 8; y: 8
            text: "Inspecting 14 items, 3 with pending bindings"
            onWidthChanged: Qt.callLater(inspectorWindow.refreshStatus)
        }
    }
}
)QML";

int main(int argc, char **argv) { return cause::qmlMain(argc, argv, "quick-second-window", kQml); }
