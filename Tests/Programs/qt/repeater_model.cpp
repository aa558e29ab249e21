// LOOPHUNTER-TRUTH: healthy
// QT-MODULES: Quick
/* repeater_model.cpp — a QML Repeater over a ListModel that a Timer changes every 100 ms.
 *
 * A tag cloud: a Flow ("tags") of Repeater-made chips (Rectangles around Texts) over a ListModel.
 * A 100 ms Timer appends a chip, renames one or removes the oldest (cycling), so chips are
 * created, destroyed and resized and the Flow re-positions them 10 times a second, driven by
 * time, never by layout. Drives: every Timer tick.
 */
#include "qtcauses.h"

static const char kQml[] = R"QML(
import QtQuick 2.15
import QtQuick.Window 2.15

Window {
    objectName: "main-window"
    title: "repeater-model"
    visible: true
    width: 360
    height: 200

    ListModel {
        id: tagModel
        ListElement { name: "qt" }
        ListElement { name: "layout" }
        ListElement { name: "feedback" }
    }
    Flow {
        objectName: "tags"
        anchors.fill: parent
        anchors.margins: 8
        spacing: 6
        Repeater {
            model: tagModel
            Rectangle {
                width: label.implicitWidth + 12
                height: label.implicitHeight + 6
                radius: 4
                color: "#dde6f0"
                Text { id: label; anchors.centerIn: parent; text: name }
            }
        }
    }
    Timer {
        interval: 100; repeat: true; running: true
        property int n: 0
        onTriggered: {
            n += 1
            cause.drives += 1
            var words = ["render", "polish", "binding", "anchors", "delegate", "flickable", "scene"]
            if (n % 3 === 0 && tagModel.count > 6) tagModel.remove(0)
            else if (n % 3 === 1) tagModel.append({ name: words[n % words.length] + n })
            else tagModel.setProperty(n % tagModel.count, "name", words[(n * 3) % words.length])
        }
    }
}
)QML";

int main(int argc, char **argv) { return cause::qmlMain(argc, argv, "repeater-model", kQml); }
