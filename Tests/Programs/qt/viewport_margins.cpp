// LOOPHUNTER-TRUTH: loop object=QWidget,GutterEdit name=editor-text,editor cause=deferred function=apply_gutter
// QT-MODULES: Widgets
/* viewport_margins.cpp — an editor picks its gutter from its viewport's width, and the gutter's
 * viewport margin changes that width.
 *
 * A code editor (GutterEdit, a QPlainTextEdit subclass, 360 px wide) draws a gutter in its left
 * viewport margin: a full one (line numbers and bookmarks, 64 px) when the text area is wider
 * than 300 px, a compact one (24 px) otherwise. It chooses in resizeEvent, which QAbstractScrollArea
 * also calls for every resize of its viewport; setting the margin there would re-enter
 * (setViewportMargins lays the viewport out at once), so the editor applies it from a zero timer.
 * The full gutter leaves the text area under 300 px, the compact one over it: the margin flips in
 * every pass, forever, and the viewport is resized each time; no LayoutRequest is ever posted.
 * Re-requesting function: apply_gutter (the zero timer's).
 */
#include "qtcauses.h"

#include <QPlainTextEdit>
#include <QResizeEvent>
#include <QVBoxLayout>

class GutterEdit : public QPlainTextEdit {
  Q_OBJECT
public:
  int gutter = 0;
  bool scheduled = false;
  using QPlainTextEdit::setViewportMargins;

protected:
  void resizeEvent(QResizeEvent *e) override;
};

/* The bug: the gutter's width follows the text area's width, which follows the gutter. */
__attribute__((noinline)) void apply_gutter(GutterEdit *edit) {
  edit->scheduled = false;
  const int want = edit->viewport()->width() > 300 ? 64 : 24;
  if (want == edit->gutter) return;
  cause::note("gutter %d (text area %d)", want, edit->viewport()->width());
  cause::rerequest();
  edit->gutter = want;
  edit->setViewportMargins(want, 0, 0, 0);
}

void GutterEdit::resizeEvent(QResizeEvent *e) {
  QPlainTextEdit::resizeEvent(e);
  if (scheduled) return;
  scheduled = true;
  QTimer::singleShot(0, this, [this]() { apply_gutter(this); });
}

int main(int argc, char **argv) {
  cause::init("viewport-margins");
  QApplication app(argc, argv);
  QWidget window;
  window.setObjectName("main-window");
  window.setWindowTitle(cause::programName());
  auto *column = new QVBoxLayout(&window);
  column->setSizeConstraint(QLayout::SetNoConstraint);
  auto *editor = new GutterEdit;
  editor->setObjectName("editor");
  editor->setFrameShape(QFrame::NoFrame);
  editor->setPlainText("int main() {\n  return 0;\n}\n");
  editor->viewport()->setObjectName("editor-text");
  editor->setFixedWidth(360);
  column->addWidget(editor, 0, Qt::AlignLeft | Qt::AlignTop);
  window.resize(400, 240);
  cause::watchWidgetWindow(&window);
  return cause::run();
}

#include "viewport_margins.moc"
