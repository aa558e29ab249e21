// LOOPHUNTER-TRUTH: healthy
// QT-MODULES: Quick
/* busy.cpp — a Qt Quick Controls BusyIndicator, an indeterminate and a determinate ProgressBar.
 *
 * A download view (QML, QtQuick.Controls 2): a running BusyIndicator ("spinner"), an indeterminate
 * ProgressBar ("pulse-bar", animated by the style) and a ProgressBar ("copy-bar") whose value and
 * a status Text ("copy-status": the file being copied and the percentage, varying width, in a
 * RowLayout) a 16 ms Timer advances. The
 * spinner and the pulse bar animate by themselves (Qt's animation driver), the rest is driven by
 * the Timer: nothing is driven by layout. Drives: every Timer tick.
 */
#include "qtcauses.h"

static const char kQml[] = R"QML(
import QtQuick 2.15
import QtQuick.Controls 2.15
import QtQuick.Layouts 1.15
import QtQuick.Window 2.15

Window {
    objectName: "main-window"
    title: "busy"
    visible: true
    width: 360
    height: 160

    ColumnLayout {
        objectName: "column"
        anchors.fill: parent
        anchors.margins: 10
        RowLayout {
            objectName: "status-row"
            BusyIndicator { objectName: "spinner"; running: true; implicitWidth: 32; implicitHeight: 32 }
            Text { id: status; objectName: "copy-status"; text: "Copying" }
            Item { Layout.fillWidth: true }
        }
        ProgressBar { objectName: "pulse-bar"; indeterminate: true; Layout.fillWidth: true }
        ProgressBar { id: copy; objectName: "copy-bar"; from: 0; to: 100; Layout.fillWidth: true }
        Item { Layout.fillHeight: true }
    }
    Timer {
        interval: 16; repeat: true; running: true
        property int n: 0
        onTriggered: {
            n += 1
            cause.drives += 1
            copy.value = n % 101
            var files = ["a.txt", "holiday-photos-2023.tar", "notes.md", "thesis-final-v3.pdf", "IMG_0042.jpg"]
            status.text = "Copying " + files[n % files.length] + " (" + (n % 101) + " %)"
        }
    }
}
)QML";

int main(int argc, char **argv) { return cause::qmlMain(argc, argv, "busy", kQml); }
