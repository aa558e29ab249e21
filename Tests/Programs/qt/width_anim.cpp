// LOOPHUNTER-TRUTH: healthy
// QT-MODULES: Quick
/* width_anim.cpp — a QML NumberAnimation of a panel's width, forever.
 *
 * A side panel (a Rectangle "panel" holding a ColumnLayout of a title and a wrapping Text) has
 * its width animated by `SequentialAnimation on width` (two NumberAnimations, 120 <-> 360 px,
 * 800 ms each, InOutQuad, infinite): the panel and its layout are relaid out in every frame while
 * the animation runs, driven by Qt's animation driver, never by layout. The animation is the only
 * writer of the width, so every width change counts as a drive (onWidthChanged).
 */
#include "qtcauses.h"

static const char kQml[] = R"QML(
import QtQuick 2.15
import QtQuick.Layouts 1.15
import QtQuick.Window 2.15

Window {
    objectName: "main-window"
    title: "width-anim"
    visible: true
    width: 400
    height: 200

    Rectangle {
        id: panel
        objectName: "panel"
        height: parent.height
        width: 120
        color: "#e8eef8"
        onWidthChanged: cause.drives += 1
        SequentialAnimation on width {
            loops: Animation.Infinite
            NumberAnimation { to: 360; duration: 800; easing.type: Easing.InOutQuad }
            NumberAnimation { to: 120; duration: 800; easing.type: Easing.InOutQuad }
        }
        ColumnLayout {
            objectName: "panel-layout"
            anchors.fill: parent
            anchors.margins: 8
            Text { objectName: "panel-title"; text: "Filters"; font.bold: true }
            Text {
                objectName: "panel-hint"
                text: "Show only unread messages from the last seven days"
                wrapMode: Text.WordWrap
                Layout.fillWidth: true
            }
            Item { Layout.fillHeight: true }
        }
    }
}
)QML";

int main(int argc, char **argv) { return cause::qmlMain(argc, argv, "width-anim", kQml); }
