// LOOPHUNTER-TRUTH: healthy
// QT-MODULES: Quick
/* quick_window_resize.cpp — a QML Window resized by a 50 ms Timer, forever.
 *
 * A Window with a wrapping Text ("paragraph") and a button row in a ColumnLayout that fills it. A
 * 50 ms Timer moves the window's width between 300 and 500 px (a triangle wave, period 2 s), as a
 * user dragging its border would: the contents are relaid out 20 times a second, driven by time,
 * never by layout. Drives: every Timer tick.
 */
#include "qtcauses.h"

static const char kQml[] = R"QML(
import QtQuick 2.15
import QtQuick.Layouts 1.15
import QtQuick.Window 2.15

Window {
    id: win
    objectName: "main-window"
    title: "quick-window-resize"
    visible: true
    width: 300
    height: 200

    ColumnLayout {
        objectName: "column"
        anchors.fill: parent
        anchors.margins: 8
        Text {
            objectName: "paragraph"
            text: "Resizing a window re-wraps this paragraph: the layout recomputes its height for each new width, and the buttons below move to stay at the bottom right."
            wrapMode: Text.WordWrap
            Layout.fillWidth: true
        }
        Item { Layout.fillHeight: true }
        RowLayout {
            objectName: "buttons"
            Item { Layout.fillWidth: true }
            Rectangle { implicitWidth: 70; implicitHeight: 26; color: "#dddddd" }
            Rectangle { implicitWidth: 70; implicitHeight: 26; color: "#dddddd" }
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

int main(int argc, char **argv) { return cause::qmlMain(argc, argv, "quick-window-resize", kQml); }
