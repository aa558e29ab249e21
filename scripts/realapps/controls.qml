// controls.qml — a small Qt Quick Controls 2 application for scripts/realapps (run by Qt 6's `qml`
// runtime, apps.sh's "qml6-controls"; Qt 5's qmlscene runs it too). Debian ships Qt 5's Controls 2
// gallery built (qtquickcontrols2-5-examples) but no Qt 6 one: this file stands in for it, with
// what drive.sh does to an application (typing, a menu, a context menu, a dialog, an About box,
// scrolling, switching tabs) each changing the layout: the typed text filters a list of 400 rows
// and is echoed, wrapped, in a label whose height follows it; the tabs swap pages of different
// sizes; the window's size moves everything.
//
// Keys: F10 the menu, ctrl+o the "Open" dialog, F1 the About box, ctrl+Tab the next tab,
// ctrl+z undo in the text field, Escape closes a popup. A right-click opens a context menu.
import QtQuick 2.15
import QtQuick.Controls 2.15
import QtQuick.Layouts 1.15

ApplicationWindow {
    id: window
    width: 800
    height: 600
    visible: true
    title: "LoopHunter Qt Quick Controls"

    Shortcut { sequence: "F10"; onActivated: mainMenu.popup(0, 0) }
    Shortcut { sequence: "Ctrl+O"; onActivated: openDialog.open() }
    Shortcut { sequence: "F1"; onActivated: aboutDialog.open() }
    Shortcut { sequence: "Ctrl+Tab"; onActivated: tabs.currentIndex = (tabs.currentIndex + 1) % tabs.count }

    header: ToolBar {
        RowLayout {
            anchors.fill: parent
            ToolButton { text: "\u2630"; onClicked: mainMenu.popup() }
            TabBar {
                id: tabs
                Layout.fillWidth: true
                TabButton { text: "Text" }
                TabButton { text: "Controls" }
                TabButton { text: "Grid" }
            }
            Label { text: filter.text.length + " chars"; rightPadding: 8 }
        }
    }

    footer: Label {
        padding: 6
        text: list.count + " rows of 400 match \"" + filter.text + "\""
        elide: Label.ElideMiddle
    }

    Menu {
        id: mainMenu
        MenuItem { text: "Open\u2026"; onTriggered: openDialog.open() }
        MenuItem { text: "Next tab"; onTriggered: tabs.currentIndex = (tabs.currentIndex + 1) % tabs.count }
        MenuSeparator { }
        MenuItem { text: "About"; onTriggered: aboutDialog.open() }
    }

    Menu {
        id: contextMenu
        MenuItem { text: "Clear"; onTriggered: filter.clear() }
        MenuItem { text: "Select all"; onTriggered: filter.selectAll() }
        MenuItem { text: "Next tab"; onTriggered: tabs.currentIndex = (tabs.currentIndex + 1) % tabs.count }
    }

    MouseArea {
        anchors.fill: parent
        acceptedButtons: Qt.RightButton
        onClicked: contextMenu.popup()
        z: -1
    }

    StackLayout {
        anchors.fill: parent
        anchors.margins: 8
        currentIndex: tabs.currentIndex

        ColumnLayout {
            TextField {
                id: filter
                focus: true
                placeholderText: "Type to filter the rows"
                Layout.fillWidth: true
                // The right-click menu (a TextField takes right-clicks itself).
                TapHandler { acceptedButtons: Qt.RightButton; onTapped: contextMenu.popup() }
            }
            Label {
                text: filter.text
                wrapMode: Text.WrapAnywhere
                font.pixelSize: 18
                Layout.fillWidth: true
                Layout.maximumHeight: 200
                clip: true
            }
            ListView {
                id: list
                Layout.fillWidth: true
                Layout.fillHeight: true
                clip: true
                model: rows
                ScrollBar.vertical: ScrollBar { }
                delegate: ItemDelegate {
                    width: list.width
                    text: model.text
                    highlighted: ListView.isCurrentItem
                }
                MouseArea {
                    anchors.fill: parent
                    acceptedButtons: Qt.RightButton
                    onClicked: contextMenu.popup()
                }
            }
        }

        ScrollView {
            clip: true
            ColumnLayout {
                width: parent.width
                Repeater {
                    model: 12
                    RowLayout {
                        CheckBox { text: "Option " + (index + 1); checked: index % 3 === 0 }
                        Slider { from: 0; to: 100; value: index * 8; Layout.fillWidth: true }
                        SpinBox { value: index }
                        ComboBox { model: ["One", "Two", "Three"] }
                    }
                }
            }
        }

        GridView {
            clip: true
            cellWidth: 120
            cellHeight: 60
            model: 300
            ScrollBar.vertical: ScrollBar { }
            delegate: Button { width: 110; height: 50; text: "Cell " + index }
        }
    }

    ListModel { id: rows }
    function refill() {
        rows.clear()
        var words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"]
        var f = filter.text.toLowerCase()
        for (var i = 0; i < 400; i++) {
            var t = "Row " + i + ": " + words[i % 10] + " " + words[(i * 7) % 10] + " quick brown fox"
            if (f === "" || t.toLowerCase().indexOf(f.slice(-1)) >= 0)
                rows.append({ text: t })
        }
    }
    Connections { target: filter; function onTextChanged() { window.refill() } }
    Component.onCompleted: refill()

    Dialog {
        id: openDialog
        title: "Open"
        modal: true
        standardButtons: Dialog.Open | Dialog.Cancel
        anchors.centerIn: parent
        width: Math.min(window.width * 0.8, 500)
        height: Math.min(window.height * 0.8, 400)
        contentItem: ListView {
            clip: true
            model: 60
            delegate: ItemDelegate { width: ListView.view.width; text: "document-" + index + ".txt" }
        }
    }

    Dialog {
        id: aboutDialog
        title: "About"
        modal: true
        standardButtons: Dialog.Close
        anchors.centerIn: parent
        width: Math.min(window.width * 0.7, 420)
        Label {
            width: aboutDialog.availableWidth
            wrapMode: Label.Wrap
            text: "A Qt Quick Controls 2 window for LoopHunter's real-application runs: typing, menus, dialogs, tabs, scrolling and resizing each change its layout."
        }
    }
}
