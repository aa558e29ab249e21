// LOOPHUNTER-TRUTH: healthy
// QT-MODULES: Quick
/* quick_readout.cpp — a 16 ms QML Timer rewrites two Texts of varying width in a RowLayout.
 *
 * A transfer readout: a throughput Text ("rate", a jittery measurement: 10 to 10,000 KB/s) and a
 * stopwatch Text ("stopwatch") in a RowLayout, rewritten by a repeating 16 ms Timer with numbers
 * of varying width: the rate changes width and the row is relaid out on most ticks, driven by
 * time, never by layout (no text depends on a size). Drives: every Timer tick.
 */
#include "qtcauses.h"

static const char kQml[] = R"QML(
import QtQuick 2.15
import QtQuick.Layouts 1.15
import QtQuick.Window 2.15

Window {
    objectName: "main-window"
    title: "quick-readout"
    visible: true
    width: 360
    height: 50

    RowLayout {
        objectName: "row"
        anchors.fill: parent
        anchors.margins: 8
        Text { id: rate; objectName: "rate"; text: "0 KB/s" }
        Text { id: stopwatch; objectName: "stopwatch"; text: "0.00 s" }
        Item { Layout.fillWidth: true }
    }
    Timer {
        interval: 16; repeat: true; running: true
        property real t: 0
        onTriggered: {
            t += 0.016
            cause.drives += 1
            // a jittery measurement: 10 to 10,000 KB/s, a different number of digits most ticks
            var noise = Math.abs(Math.sin(t * 12.9898) * 43758.5453) % 1
            rate.text = Math.round(Math.pow(10, 1 + 3 * noise)) + " KB/s"
            stopwatch.text = t.toFixed(2) + " s"
        }
    }
}
)QML";

int main(int argc, char **argv) { return cause::qmlMain(argc, argv, "quick-readout", kQml); }
