// LOOPHUNTER-TRUTH: healthy
// QT-MODULES: Quick
/* list_flick.cpp — a 2,000-row QML ListView flicked programmatically every 1.5 s.
 *
 * An inbox (a ListView "inbox" of 2,000 delegates: a RowLayout of a sender and a subject) is
 * flicked at start-up and every 1.5 s by a Timer calling flick(0, -/+3000), alternately down and
 * up, as a kinetic swipe would: while the flick decelerates, contentY changes in every frame and
 * the ListView lays out, creates and recycles delegates (its polish) and moves its content item
 * ("inbox-content", named at start-up), driven by the flick's timeline, never by layout.
 * Drives: every contentY change (only the flick moves the view) and every Timer tick.
 */
#include "qtcauses.h"

static const char kQml[] = R"QML(
import QtQuick 2.15
import QtQuick.Layouts 1.15
import QtQuick.Window 2.15

Window {
    objectName: "main-window"
    title: "list-flick"
    visible: true
    width: 360
    height: 300

    ListView {
        id: inbox
        objectName: "inbox"
        anchors.fill: parent
        model: 2000
        clip: true
        onContentYChanged: cause.drives += 1
        // names the Flickable's content item, which the flick moves (and the self-check watches)
        Component.onCompleted: contentItem.objectName = "inbox-content"
        delegate: RowLayout {
            width: inbox.width
            height: 28
            Text { text: "Sender " + (index % 37); Layout.preferredWidth: 100 }
            Text { text: "Re: report #" + index; Layout.fillWidth: true; elide: Text.ElideRight }
        }
    }
    Timer {
        interval: 1500; repeat: true; running: true; triggeredOnStart: true
        property bool down: true
        onTriggered: {
            cause.drives += 1
            inbox.flick(0, down ? -3000 : 3000)
            down = !down
        }
    }
}
)QML";

int main(int argc, char **argv) { return cause::qmlMain(argc, argv, "list-flick", kQml); }
