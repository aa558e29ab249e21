// LOOPHUNTER-TRUTH: healthy
// QT-MODULES: Quick
/* quick_scaled_anim.cpp — a 16 ms QML Timer reads a layout's result and moves a thumb by the clock.
 *
 * A slider-like readout (QML, embedded below): a RowLayout "track-row" holds a spacer and a thumb
 * (a Rectangle) whose Layout.leftMargin a repeating 16 ms Timer sets to (track width - 20) times a
 * triangle wave of the elapsed time, eased: half way from where the layout put the thumb (its x,
 * read) to that target. Every tick reads layout results (the row's and the track's widths, the
 * thumb's x) and asks the RowLayout to lay out again — the hop of `quick_jitter`, and the thumb's
 * x even feeds back — but the widths read stay put and the thumb glides after a moving target: no
 * allocation read flips between two values. Each tick is a drive.
 */
#include "qtcauses.h"

static const char kQml[] = R"QML(
import QtQuick 2.15
import QtQuick.Layouts 1.15
import QtQuick.Window 2.15

Window {
    objectName: "main-window"
    title: "quick-scaled-anim"
    visible: true
    width: 360
    height: 60

    property real elapsed: 0

    function step() {
        elapsed += 0.016
        var phase = (elapsed % 2.0) / 2.0
        var wave = phase < 0.5 ? phase * 2 : 2 - phase * 2
        var room = Math.min(row.width, track.width) - 20
        var target = Math.max(0, room * wave)
        // Eased: half way from where the layout put the thumb to the target.
        thumb.Layout.leftMargin = thumb.x + (target - thumb.x) / 2
        cause.drives += 1
    }

    Timer { interval: 16; repeat: true; running: true; onTriggered: step() }

    Rectangle {
        id: track
        objectName: "track"
        x: 8; y: 8
        width: 300; height: 44
        color: "#eeeeee"
        RowLayout {
            id: row
            objectName: "track-row"
            anchors.fill: parent
            spacing: 0
            Rectangle { id: thumb; objectName: "thumb"; color: "steelblue"; Layout.preferredWidth: 20; Layout.preferredHeight: 20 }
            Item { Layout.fillWidth: true }
        }
    }
}
)QML";

int main(int argc, char **argv) { return cause::qmlMain(argc, argv, "quick-scaled-anim", kQml); }
