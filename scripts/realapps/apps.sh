# apps.sh — the applications run.sh knows and how drive.sh drives each one (sourced by both).
#
# app_spec NAME DIR sets:
#   APP_CMD        the command line (an array)
#   APP_TEXT       text typed into the focused widget each round (empty: none)
#   APP_AFTER_TEXT keys pressed after the text (empty: none)
#   APP_DIALOG     keys that open a dialog (Open, Preferences...; empty: none), closed again by
#                  Escape and WM_DELETE_WINDOW
#   APP_ABOUT      keys that open the About box through the menu: F10 opens a GTK 3 menu bar's
#                  first menu (Left goes round to Help, Up to its last item, About) or a header bar's
#                  main menu (Up: its last item, About)
#   APP_CLICK      non-empty: a click in the middle of the window first (an editor's text view takes
#                  the keyboard focus back from a menu button)
#   APP_UNDO, APP_UNDO_TIMES  keys that undo one edit, and how often, before closing (an editor
#                  then has nothing to save and closes without asking)
#   APP_BEFORE_TEXT keys pressed before the text (empty: none)
#   APP_MENU       keys that open a menu (default F10; a Qt menu bar opens with its first menu's
#                  mnemonic, alt+f), closed again with Escape
#   APP_TABS       keys that switch to another tab or page (empty: none)
#   APP_ENV        the app's own environment variables (an array of NAME=VALUE; the Qt apps:
#                  QT_QPA_PLATFORM=xcb, see qt_env)
#   APP_NEEDS      a file the app needs besides its command (a Python binding, a QML module),
#                  empty: none; the app counts as not installed without it
# and returns 1 for a name it does not know. DIR is the app's directory (a document goes there).
# Wherever keys are pressed (APP_BEFORE_TEXT, APP_AFTER_TEXT, APP_MENU, APP_DIALOG, APP_ABOUT,
# APP_TABS), two other words may come among them: "click:X,Y", a left click at X,Y in the main
# window (negative: from its right or bottom edge), for what has no key (a menu bar whose
# mnemonics a terminal takes, a Qt Quick menu); and "wait", a second's pause.

# The default list: Debian's GTK 3 and GTK 4 applications, the GTK demos and widget factories,
# and two GJS applications.
REALAPPS_DEFAULT=(gnome-calculator gnome-text-editor gnome-font-viewer gnome-system-monitor gedit mousepad geany
                  evince gtk4-demo gtk3-demo gtk4-widget-factory gtk3-widget-factory gnome-characters gnome-weather)
# Debian's Qt 5 and Qt 6 applications (Widgets and Qt Quick), and two PyQt programs: part of the
# default list too (each one is skipped when it is not installed).
REALAPPS_QT=(featherpad kcalc qpdfview qterminal focuswriter designer-qt6 quick5-gallery quick6-controls
             pyqt5-application pyqt6-editor)
REALAPPS_DEFAULT+=("${REALAPPS_QT[@]}")

# A PDF of 12 text pages (for evince to show and scroll), written without any PDF library.
realapps_pdf() {
  /usr/bin/python3 - "$1" <<'EOF'
import sys
pages = 12
objs = ["<< /Type /Catalog /Pages 2 0 R >>", None, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
kids = []
for p in range(pages):
    lines = "".join(f"BT /F1 14 Tf 72 {740 - 20 * i} Td (Page {p + 1}, line {i + 1}: LoopHunter real-application run.) Tj ET\n"
                    for i in range(30))
    objs.append(f"<< /Length {len(lines)} >>\nstream\n{lines}endstream")
    content = len(objs)
    objs.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents {content} 0 R >>")
    kids.append(f"{len(objs)} 0 R")
objs[1] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {pages} >>"
out = b"%PDF-1.4\n"
offsets = []
for n, body in enumerate(objs, 1):
    offsets.append(len(out))
    out += f"{n} 0 obj\n{body}\nendobj\n".encode()
xref = len(out)
out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode()
out += "".join(f"{o:010d} 00000 n \n" for o in offsets).encode()
out += f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
open(sys.argv[1], "wb").write(out)
EOF
}

# A Qt Designer form of a few widgets in layouts (for designer-qt6 to open and preview).
realapps_ui() {
  cat >"$1" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<ui version="4.0">
 <class>Form</class>
 <widget class="QWidget" name="Form">
  <property name="geometry"><rect><x>0</x><y>0</y><width>480</width><height>360</height></rect></property>
  <property name="windowTitle"><string>LoopHunter form</string></property>
  <layout class="QVBoxLayout" name="column">
   <item>
    <layout class="QFormLayout" name="form">
     <item row="0" column="0"><widget class="QLabel" name="nameLabel"><property name="text"><string>Name</string></property></widget></item>
     <item row="0" column="1"><widget class="QLineEdit" name="name"/></item>
     <item row="1" column="0"><widget class="QLabel" name="kindLabel"><property name="text"><string>Kind</string></property></widget></item>
     <item row="1" column="1"><widget class="QComboBox" name="kind"/></item>
    </layout>
   </item>
   <item><widget class="QTextEdit" name="notes"/></item>
   <item>
    <widget class="QDialogButtonBox" name="buttons">
     <property name="standardButtons"><set>QDialogButtonBox::Cancel|QDialogButtonBox::Ok</set></property>
    </widget>
   </item>
  </layout>
 </widget>
 <resources/>
 <connections/>
</ui>
EOF
}

# The environment of every Qt application: the X11 platform plugin (Qt 6 tries Wayland first when
# WAYLAND_DISPLAY is set). Qt 5.15 and 6.4 read no variable that turns their accessibility bridge
# off, and need none here: none of them asks the session bus for the AT-SPI bus (dbus-daemon logs
# no activation of org.a11y.Bus). Qt Quick renders with OpenGL on Mesa's llvmpipe through Xvfb's
# GLX, with its threaded render loop (a QSGRenderThread); QT_QUICK_BACKEND=software in run.sh's
# environment (it passes through) renders without OpenGL and without that thread.
qt_env() {
  APP_ENV=(QT_QPA_PLATFORM=xcb "$@")
}

app_spec() {
  local name=$1 dir=$2
  APP_CMD=("$name")
  APP_TEXT=
  APP_AFTER_TEXT=
  APP_DIALOG=
  APP_ABOUT="F10 Up Return"
  APP_CLICK=
  APP_UNDO=
  APP_UNDO_TIMES=0
  APP_BEFORE_TEXT=
  APP_MENU=F10
  APP_TABS=
  APP_ENV=()
  APP_NEEDS=
  case "$name" in
    gnome-calculator)
      APP_TEXT="12345+678*9" APP_AFTER_TEXT="Return Escape" ;;
    gnome-text-editor | gedit)
      APP_TEXT="The quick brown fox jumps over the lazy dog. " APP_AFTER_TEXT=Return
      APP_DIALOG=ctrl+o APP_UNDO=ctrl+z APP_UNDO_TIMES=40 APP_CLICK=1 ;;
    mousepad | geany)
      APP_TEXT="The quick brown fox jumps over the lazy dog. " APP_AFTER_TEXT=Return
      APP_DIALOG=ctrl+o APP_ABOUT="F10 Left Up Return" APP_UNDO=ctrl+z APP_UNDO_TIMES=40 APP_CLICK=1 ;;
    gnome-font-viewer | gnome-characters)
      APP_TEXT="sans" APP_AFTER_TEXT="Escape" ;;
    gnome-system-monitor)
      APP_TEXT="bash" APP_AFTER_TEXT="Escape" APP_DIALOG=ctrl+f ;;
    gnome-weather)
      APP_TEXT="Berlin" APP_AFTER_TEXT="Escape" ;;
    evince)
      [ -n "$dir" ] && realapps_pdf "$dir/document.pdf"
      APP_CMD=(evince "$dir/document.pdf")
      APP_DIALOG=ctrl+o APP_TEXT="page" APP_AFTER_TEXT="Escape" ;;
    gtk4-demo | gtk3-demo)
      APP_TEXT="button" APP_AFTER_TEXT="Escape" ;;
    gtk4-widget-factory | gtk3-widget-factory)
      APP_TEXT="hello" ;;
    # Not in the default list (large, or slow to start): name them, after installing them
    # (apt-get install inkscape gimp gnome-clocks gnome-sound-recorder).
    inkscape)
      APP_CMD=(inkscape --with-gui) APP_UNDO=ctrl+z APP_UNDO_TIMES=5 APP_CLICK=1 ;;
    gimp)
      APP_CMD=(gimp --no-splash) APP_DIALOG=ctrl+o APP_CLICK=1 ;;
    gnome-clocks | gnome-sound-recorder)
      ;;
    # Qt applications: Debian's packages, and the Qt platform plugin and QML modules they need
    # without recommends (README.md, Qt applications, lists them all).
    # A Qt menu bar opens with a mnemonic (alt+f: File); alt+h opens Help, and Up from there is its
    # last item (About, or About Qt).
    featherpad) # Qt 5 Widgets, a text editor with tabs and a search bar
      qt_env
      APP_TEXT="The quick brown fox jumps over the lazy dog. " APP_AFTER_TEXT=Return
      APP_MENU=alt+f APP_DIALOG=ctrl+o APP_ABOUT="alt+h Up Return" APP_TABS=ctrl+alt+p
      APP_UNDO=ctrl+z APP_UNDO_TIMES=40 APP_CLICK=1 ;;
    kcalc) # Qt 5 Widgets with KDE Frameworks 5; its dialog is Configure KCalc (ctrl+shift+,)
      qt_env
      APP_TEXT="12345+678*9" APP_AFTER_TEXT="Return Escape"
      APP_MENU=alt+f APP_ABOUT="alt+h Up Return" APP_DIALOG=ctrl+shift+comma ;;
    qpdfview) # Qt 5 Widgets, a PDF viewer (the same 12 pages as evince): its search bar (ctrl+f)
      # finds the text; the "tabs" are its page layouts (ctrl+6 two pages, ctrl+9 fit to width,
      # ctrl+6 back to one, ctrl+0 original size)
      [ -n "$dir" ] && realapps_pdf "$dir/document.pdf"
      qt_env
      APP_CMD=(qpdfview "$dir/document.pdf")
      APP_BEFORE_TEXT=ctrl+f APP_TEXT="page" APP_AFTER_TEXT="Return wait Escape"
      APP_MENU=alt+f APP_DIALOG=ctrl+o APP_ABOUT="alt+h Up Return" APP_TABS="ctrl+6 wait ctrl+9 wait ctrl+6 ctrl+0" ;;
    qterminal) # Qt 5 Widgets, a terminal: the shell prints a screenful each round. The terminal
      # takes alt+letter, so its menu bar is clicked (File at 20,10, Help at 206,10); its dialog is
      # Preferences (File's last item but one), its About box Help's first item; a new tab each
      # round. A fresh HOME would ask "Are you sure you want to exit?" when its window is closed:
      # AskOnExit=false in its settings, as after ticking "Do not ask again".
      if [ -n "$dir" ]; then
        mkdir -p "$dir/home/.config/qterminal.org"
        printf '[General]\nAskOnExit=false\n' >"$dir/home/.config/qterminal.org/qterminal.ini"
      fi
      qt_env
      APP_CMD=(qterminal --workdir "$dir/home")
      APP_TEXT="ls -l /usr/share | head -40" APP_AFTER_TEXT=Return
      APP_MENU=click:20,10 APP_DIALOG="click:20,10 wait Up Up Return" APP_ABOUT="click:206,10 wait Down Return"
      APP_TABS=ctrl+shift+t ;;
    focuswriter) # Qt 6 Widgets, a full-window text editor
      qt_env
      APP_TEXT="The quick brown fox jumps over the lazy dog. " APP_AFTER_TEXT=Return
      APP_MENU=alt+f APP_DIALOG=ctrl+o APP_ABOUT="alt+h Up Return"
      APP_UNDO=ctrl+z APP_UNDO_TIMES=40 APP_CLICK=1 ;;
    designer-qt6) # Qt 6 Widgets, Qt Designer on a form: the text goes into its Widget Box's filter
      # (at 60,91), which filters the box, and is cleared again; its dialog is the form's live
      # preview (ctrl+r)
      [ -n "$dir" ] && realapps_ui "$dir/form.ui"
      qt_env
      APP_CMD=(/usr/lib/qt6/bin/designer "$dir/form.ui")
      APP_BEFORE_TEXT=click:60,91 APP_TEXT="button" APP_AFTER_TEXT="wait ctrl+a BackSpace"
      APP_MENU=alt+f APP_DIALOG=ctrl+r APP_ABOUT="alt+h Up Return" ;;
    quick5-gallery) # Qt 5 Qt Quick Controls 2: the gallery example as Debian builds it. Its menu
      # opens with the Menu key, but takes no keys: its items are clicked (the menu's right edge is
      # the window's; Settings at y 20, About at y 98). Its "tabs" are its pages: Escape back to the
      # start, the drawer's button (20,20), its eighth row (Delegates, y 307), a list of delegates
      # that the scroll step then scrolls.
      qt_env
      APP_CMD=(/usr/lib/x86_64-linux-gnu/qt5/examples/quickcontrols2/gallery/gallery)
      APP_NEEDS=/usr/lib/x86_64-linux-gnu/qt5/qml/Qt/labs/settings/qmldir
      APP_MENU=Menu APP_DIALOG="Menu wait click:-150,20" APP_ABOUT="Menu wait click:-150,98"
      APP_TABS="Escape wait click:20,20 wait click:100,307" ;;
    quick6-controls) # Qt 6 Qt Quick Controls 2: controls.qml (beside this file) in Qt 6's qml
      # runtime; the text goes into its filter field (the rows that hold the last character typed)
      qt_env
      APP_CMD=(/usr/lib/qt6/bin/qml "$(dirname "${BASH_SOURCE[0]}")/controls.qml")
      APP_NEEDS=/usr/lib/x86_64-linux-gnu/qt6/qml/QtQuick/Controls/qmldir
      APP_TEXT="over the lazy dog" APP_AFTER_TEXT=""
      APP_DIALOG=ctrl+o APP_ABOUT=F1 APP_TABS=ctrl+Tab APP_UNDO=ctrl+z APP_UNDO_TIMES=40 ;;
    pyqt5-application) # PyQt 5: the "application" example of Debian's pyqt5-examples, a text editor
      qt_env
      APP_CMD=(/usr/bin/python3 /usr/share/doc/pyqt5-examples/examples/mainwindows/application/application.py)
      APP_NEEDS=/usr/lib/python3/dist-packages/PyQt5/QtWidgets.abi3.so
      APP_TEXT="The quick brown fox jumps over the lazy dog. " APP_AFTER_TEXT=Return
      APP_MENU=alt+f APP_DIALOG="alt+f Up Up Return" APP_ABOUT="alt+h Up Up Return"
      APP_UNDO=ctrl+z APP_UNDO_TIMES=40 APP_CLICK=1 ;;
    pyqt6-editor | pyside2-editor) # PyQt 6 (PySide 2, not in the default list: apt-get install
      # python3-pyside2.qtwidgets): pyqt_editor.py (beside this file), a small editor with tabs
      qt_env
      if [ "$name" = pyqt6-editor ]; then
        APP_CMD=(/usr/bin/python3 "$(dirname "${BASH_SOURCE[0]}")/pyqt_editor.py" PyQt6)
        APP_NEEDS=/usr/lib/python3/dist-packages/PyQt6/QtWidgets.abi3.so
      else
        APP_CMD=(/usr/bin/python3 "$(dirname "${BASH_SOURCE[0]}")/pyqt_editor.py" PySide2)
        APP_NEEDS=/usr/lib/python3/dist-packages/PySide2/QtWidgets.cpython-311-x86_64-linux-gnu.so
      fi
      APP_TEXT="The quick brown fox jumps over the lazy dog. " APP_AFTER_TEXT=Return
      APP_MENU=alt+f APP_DIALOG=ctrl+o APP_ABOUT="alt+h Return" APP_TABS=ctrl+Next
      APP_UNDO=ctrl+z APP_UNDO_TIMES=40 APP_CLICK=1 ;;
    *) return 1 ;;
  esac
  command -v "${APP_CMD[0]}" >/dev/null 2>&1 || return 1
  [ -z "$APP_NEEDS" ] || [ -e "$APP_NEEDS" ] || return 1
  return 0
}
