// LOOPHUNTER-TRUTH: loop object=QQuickText name=badge,title cause=deferred function=updateBadge
// QT-MODULES: Quick
/* truncated_badge.cpp — a badge shown only while a title is not elided, applied by a 0 ms Timer.
 *
 * A header row (QML, embedded below): a title Text that fills the row and elides, and a badge
 * Text after it. The badge is meant to show "only when there is room", i.e. while the title is
 * not truncated. Bound directly (visible: !title.truncated) the flip is cut short by Qt (binding
 * loop detection / the RowLayout's polish), so the app applies it from a Timer with interval 0
 * restarted from onTruncatedChanged, run after the layout that changed `truncated`. With the badge
 * the title is too narrow and elides -> the badge goes -> the title fits -> the badge comes
 * back...: the title and the badge are laid out again in every frame, forever. Re-requesting
 * function: updateBadge (a JS function of the window, called by the Timer's onTriggered).
 */
#include "qtcauses.h"

static const char kQml[] = R"QML(
import QtQuick 2.15
import QtQuick.Layouts 1.15
import QtQuick.Window 2.15

Window {
    objectName: "main-window"
    title: "truncated-badge"
    visible: true
    width: titleMetrics.advanceWidth + badgeMetrics.advanceWidth / 2 + 24
    height: 60

    function updateBadge() {
        cause.rerequests += 1
        badge.visible = !title.truncated
    }

    TextMetrics { id: titleMetrics; font: title.font; text: title.text }
    TextMetrics { id: badgeMetrics; font: badge.font; text: badge.text }
    Timer { id: relayout; interval: 0; onTriggered: updateBadge() }

    RowLayout {
        objectName: "header"
        anchors.fill: parent
        anchors.margins: 8
        Text {
            id: title
            objectName: "title"
            text: "Quarterly report for the northern region"
            elide: Text.ElideRight
            Layout.fillWidth: true
            onTruncatedChanged: relayout.restart()
        }
        Text {
            id: badge
            objectName: "badge"
            text: "Updated 5 minutes ago"
            color: "darkgreen"
        }
    }
}
)QML";

int main(int argc, char **argv) { return cause::qmlMain(argc, argv, "truncated-badge", kQml); }
