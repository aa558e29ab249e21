#!/usr/bin/python3
"""pyqt_editor.py — a small PyQt text editor for scripts/realapps (apps.sh's "pyqt6-editor").

    python3 pyqt_editor.py [PyQt6|PyQt5|PySide6|PySide2]   (default PyQt6)

A QMainWindow the way a small Python application makes one: a menu bar (File: Open, which shows
QFileDialog, and Quit; Edit: Undo; View: the next tab; Help: About), a tool bar, tabs (the text,
a table of 300 rows, a form), a status bar counting words, and a label under the text that repeats
its last line, word-wrapped, so that typing changes the window's layout.
"""
import sys

binding = sys.argv[1] if len(sys.argv) > 1 else "PyQt6"
if binding == "PyQt6":
    from PyQt6 import QtCore, QtGui, QtWidgets
elif binding == "PyQt5":
    from PyQt5 import QtCore, QtGui, QtWidgets
elif binding == "PySide6":
    from PySide6 import QtCore, QtGui, QtWidgets
elif binding == "PySide2":
    from PySide2 import QtCore, QtGui, QtWidgets
else:
    sys.exit(f"pyqt_editor: unknown binding {binding}")

# QAction moved from QtWidgets to QtGui in Qt 6.
QAction = getattr(QtGui, "QAction", None) or QtWidgets.QAction


class Editor(QtWidgets.QMainWindow):
    def __init__(self):
        super().__init__()
        self.setWindowTitle(f"pyqt_editor ({binding}, Qt {QtCore.qVersion()})")
        self.resize(800, 600)

        self.text = QtWidgets.QPlainTextEdit()
        self.echo = QtWidgets.QLabel()
        self.echo.setWordWrap(True)
        page = QtWidgets.QWidget()
        column = QtWidgets.QVBoxLayout(page)
        column.addWidget(self.text, 1)
        column.addWidget(self.echo)

        table = QtWidgets.QTableWidget(300, 4)
        for r in range(300):
            for c in range(4):
                table.setItem(r, c, QtWidgets.QTableWidgetItem(f"cell {r}, {c}"))

        form = QtWidgets.QWidget()
        layout = QtWidgets.QFormLayout(form)
        for i in range(8):
            layout.addRow(f"Field {i + 1}", QtWidgets.QLineEdit(f"value {i + 1}"))

        self.tabs = QtWidgets.QTabWidget()
        self.tabs.addTab(page, "Text")
        self.tabs.addTab(table, "Table")
        self.tabs.addTab(form, "Form")
        self.setCentralWidget(self.tabs)

        def action(menu, name, slot, shortcut=None):
            a = QAction(name, self)
            if shortcut:
                a.setShortcut(QtGui.QKeySequence(shortcut))
            a.triggered.connect(slot)
            menu.addAction(a)
            return a

        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        open_action = action(file_menu, "&Open…", self.open, "Ctrl+O")
        action(file_menu, "&Quit", self.close, "Ctrl+Q")
        edit_menu = bar.addMenu("&Edit")
        action(edit_menu, "&Undo", self.text.undo)
        view_menu = bar.addMenu("&View")
        next_tab = action(view_menu, "&Next tab", self.next_tab, "Ctrl+PgDown")
        help_menu = bar.addMenu("&Help")
        action(help_menu, "&About", self.about)
        tools = self.addToolBar("Main")
        tools.addAction(open_action)
        tools.addAction(next_tab)

        self.text.textChanged.connect(self.changed)
        self.changed()
        self.text.setFocus()

    def changed(self):
        content = self.text.toPlainText()
        self.echo.setText(content.splitlines()[-1] if content.strip() else "(empty)")
        self.statusBar().showMessage(f"{len(content.split())} words, {len(content)} characters")

    def next_tab(self):
        self.tabs.setCurrentIndex((self.tabs.currentIndex() + 1) % self.tabs.count())

    def open(self):
        QtWidgets.QFileDialog.getOpenFileName(self, "Open")

    def about(self):
        QtWidgets.QMessageBox.about(self, "About pyqt_editor",
                                    "A small PyQt text editor for LoopHunter's real-application runs.")


app = QtWidgets.QApplication(sys.argv[:1])
window = Editor()
window.show()
sys.exit(app.exec() if hasattr(app, "exec") else app.exec_())
