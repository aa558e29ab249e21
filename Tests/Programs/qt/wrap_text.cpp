// LOOPHUNTER-TRUTH: loop object=QQuickText name=note cause=deferred function=fitNoteWidth
// QT-MODULES: Quick
/* wrap_text.cpp — a word-wrapping QML Text in a RowLayout that flips between one and two lines.
 *
 * A release-notes window (QML, embedded below) shows a wrapping Text ("note", wrapMode WordWrap)
 * in a RowLayout. Its preferred width follows its own line count: two lines -> "give it room",
 * Layout.preferredWidth = the text's one-line width (it fits on one line); one line -> "make it a
 * compact block", Layout.preferredWidth = 2/3 of that (it wraps to two lines). Written as a
 * binding the rule is cut short by Qt (the RowLayout's polish absorbs the change, Qt 6 warns "Qt
 * Quick Layouts: Polish loop detected"), so the handler defers it, the usual advice:
 * onLineCountChanged: Qt.callLater(fitNoteWidth). The RowLayout re-lays the note out in the next
 * frame, the line count flips, the call is queued again: the note changes width and height in
 * every frame, forever. Re-requesting function: fitNoteWidth (a JS function of the window, run by
 * Qt.callLater after the layout that changed lineCount).
 */
#include "qtcauses.h"

static const char kQml[] = R"QML(
import QtQuick 2.15
import QtQuick.Layouts 1.15
import QtQuick.Window 2.15

Window {
    objectName: "main-window"
    title: "wrap-text"
    visible: true
    width: 640
    height: 140

    function fitNoteWidth() {
        cause.rerequests += 1
        note.Layout.preferredWidth = note.lineCount > 1 ? oneLine.advanceWidth + 8
                                                        : oneLine.advanceWidth * 2 / 3
    }

    TextMetrics { id: oneLine; font: note.font; text: note.text }

    RowLayout {
        objectName: "row"
        anchors.fill: parent
        anchors.margins: 8
        Text {
            id: note
            objectName: "note"
            text: "Version 2.4 fixes the sync of shared calendars and makes search twice as fast"
            wrapMode: Text.WordWrap
            Layout.alignment: Qt.AlignTop
            Layout.preferredWidth: oneLine.advanceWidth * 2 / 3
            onLineCountChanged: Qt.callLater(fitNoteWidth)
        }
        Item { Layout.fillWidth: true }
    }
}
)QML";

int main(int argc, char **argv) { return cause::qmlMain(argc, argv, "wrap-text", kQml); }
