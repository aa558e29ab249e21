// LOOPHUNTER-TRUTH: healthy
// QT-MODULES: Widgets
/* gutter_append.cpp — a code editor with a line-number gutter in its viewport margin, a line
 * appended every 50 ms.
 *
 * Qt's CodeEditor example: a QPlainTextEdit subclass (LineEditor) keeps its left viewport margin
 * as wide as the widest line number (setViewportMargins on blockCountChanged: 1 digit, then 2, 3,
 * 4...), and places the gutter widget over that margin from its resizeEvent. A 50 ms timer appends
 * a line (the editor scrolls to the end): the margin widens when the count gains a digit, which
 * resizes the viewport and calls resizeEvent, which moves the gutter; nothing there changes the
 * margin again. A second timer, every 100 ms, shows or hides a fold-marker column in the gutter
 * (12 px more or less: the margin and the viewport change 10 times a second, from outside), and
 * every fourth of its ticks re-applies the margin unchanged (a settings refresh). Drives: every
 * timer tick.
 */
#include "qtcauses.h"

#include <QPainter>
#include <QPlainTextEdit>
#include <QResizeEvent>
#include <QVBoxLayout>

class LineEditor : public QPlainTextEdit {
  Q_OBJECT
public:
  QWidget *gutter = new QWidget(this);
  bool folds = false;
  LineEditor() {
    gutter->setObjectName("gutter");
    connect(this, &QPlainTextEdit::blockCountChanged, this, &LineEditor::updateMargin);
    updateMargin();
  }
  int gutterWidth() const {
    int digits = 1;
    for (int n = qMax(1, blockCount()); n >= 10; n /= 10) digits++;
    return 6 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * digits + (folds ? 12 : 0);
  }
  void updateMargin() { setViewportMargins(gutterWidth(), 0, 0, 0); }

protected:
  void resizeEvent(QResizeEvent *e) override {
    QPlainTextEdit::resizeEvent(e);
    const QRect r = contentsRect();
    gutter->setGeometry(QRect(r.left(), r.top(), gutterWidth(), r.height()));
  }
};

int main(int argc, char **argv) {
  cause::init("gutter-append");
  QApplication app(argc, argv);
  QWidget window;
  window.setObjectName("main-window");
  window.setWindowTitle(cause::programName());
  auto *column = new QVBoxLayout(&window);
  auto *editor = new LineEditor;
  editor->setObjectName("editor");
  editor->viewport()->setObjectName("editor-text");
  column->addWidget(editor);
  window.resize(420, 260);

  QTimer append;
  int line = 0;
  QObject::connect(&append, &QTimer::timeout, editor, [editor, &line]() {
    cause::drive(editor);
    editor->appendPlainText(QString("line %1: the quick brown fox").arg(++line));
  });
  append.start(50);
  QTimer folds;
  int tick = 0;
  QObject::connect(&folds, &QTimer::timeout, editor, [editor, &tick]() {
    cause::drive(editor);
    if (++tick % 4 != 0) editor->folds = !editor->folds;
    editor->updateMargin();
  });
  folds.start(100);
  cause::watchWidgetWindow(&window);
  return cause::run();
}

#include "gutter_append.moc"
