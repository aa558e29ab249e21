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
# and returns 1 for a name it does not know. DIR is the app's directory (a document goes there).

# The default list: Debian's GTK 3 and GTK 4 applications, the GTK demos and widget factories,
# and two GJS applications.
REALAPPS_DEFAULT=(gnome-calculator gnome-text-editor gnome-font-viewer gnome-system-monitor gedit mousepad geany
                  evince gtk4-demo gtk3-demo gtk4-widget-factory gtk3-widget-factory gnome-characters gnome-weather)

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
    *) return 1 ;;
  esac
  command -v "${APP_CMD[0]}" >/dev/null 2>&1 || return 1
  return 0
}
