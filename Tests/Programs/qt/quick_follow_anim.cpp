// LOOPHUNTER-TRUTH: healthy
// QT-MODULES: Quick
/* quick_follow_anim.cpp — an animated bar whose onWidthChanged places a badge through Qt.callLater.
 *
 * A progress bar (a Rectangle "bar") has its width animated forever (SequentialAnimation on width,
 * 40 <-> 300 px, 900 ms each way, InOutQuad). Its onWidthChanged handler does not move the badge
 * itself: it defers placeBadge with Qt.callLater, which sets the badge's x to just past the bar's
 * end and its text to the bar's percentage. So in every frame a call scheduled by a geometry
 * change changes another item's geometry: the same hop as a loop closed by onWidthChanged, but
 * driven by the animation's clock, not by the badge's own layout. The badge glides (a different x
 * in every frame, less than a pixel a frame near the turns of the easing curve), it never flips
 * between two places. Each badge move counts as a drive.
 */
#include "qtcauses.h"

static const char kQml[] = R"QML(
import QtQuick 2.15
import QtQuick.Window 2.15

Window {
    objectName: "main-window"
    title: "quick-follow-anim"
    visible: true
    width: 400
    height: 60

    function placeBadge() {
        badge.x = bar.x + bar.width + 6
        badge.text = Math.round(bar.width / 3) + " %"
        cause.drives += 1
    }

    Rectangle {
        id: bar
        objectName: "bar"
        x: 8; y: 20
        height: 16
        width: 40
        color: "seagreen"
        onWidthChanged: Qt.callLater(placeBadge)
        SequentialAnimation on width {
            loops: Animation.Infinite
            NumberAnimation { to: 300; duration: 900; easing.type: Easing.InOutQuad }
            NumberAnimation { to: 40; duration: 900; easing.type: Easing.InOutQuad }
        }
    }
    Text { id: badge; objectName: "badge"; y: 20; x: 54; text: "13 %" }
}
)QML";

int main(int argc, char **argv) { return cause::qmlMain(argc, argv, "quick-follow-anim", kQml); }
