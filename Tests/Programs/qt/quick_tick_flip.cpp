// LOOPHUNTER-TRUTH: loop object=QQuickText name=title cause=result function=fitTitle
// QT-MODULES: Quick
/* quick_tick_flip.cpp — a per-frame hook reads a title's width and swaps its text, every frame.
 *
 * A header (QML, embedded below): a title Text in a RowLayout. The window's afterAnimating
 * handler — code the app runs once per frame, right after the frame's polish phase; connected at
 * start-up, not by layout — reads the width the title got and picks its text: wide -> the short
 * title, narrow -> the long one. The new text changes the title's implicit width, the RowLayout
 * lays it out again in the next frame, the hook reads the new width...: the title flips every
 * frame, forever. No callback is born in layout: the hook reads the layout's result.
 * Re-requesting function: fitTitle (a JS function of the window, called by onAfterAnimating).
 */
#include "qtcauses.h"

static const char kQml[] = R"QML(
import QtQuick 2.15
import QtQuick.Layouts 1.15
import QtQuick.Window 2.15

Window {
    objectName: "main-window"
    title: "quick-tick-flip"
    visible: true
    width: 420
    height: 50

    readonly property string longTitle: "Quarterly report for the northern region"
    readonly property string shortTitle: "Q3 report"
    readonly property real threshold: (longMetrics.advanceWidth + shortMetrics.advanceWidth) / 2

    function fitTitle() {
        var want = title.width >= threshold ? shortTitle : longTitle
        if (title.text === want) return
        cause.rerequests += 1
        title.text = want
    }

    onAfterAnimating: fitTitle()

    TextMetrics { id: longMetrics; font: title.font; text: "Quarterly report for the northern region" }
    TextMetrics { id: shortMetrics; font: title.font; text: "Q3 report" }

    RowLayout {
        objectName: "header"
        anchors.fill: parent
        anchors.margins: 8
        Text { id: title; objectName: "title"; text: "Quarterly report for the northern region" }
        Item { Layout.fillWidth: true }
    }
}
)QML";

int main(int argc, char **argv) { return cause::qmlMain(argc, argv, "quick-tick-flip", kQml); }
