// LOOPHUNTER-TRUTH: loop object=NoteLabel,QLabel name=note cause=in-layout function=fit_note_width
// QT-MODULES: Widgets
/* wrap_label.cpp — a word-wrapping QLabel that keeps its width a ratio of its height, in a layout.
 *
 * A release-notes window shows a word-wrapping note (NoteLabel, a QLabel subclass) in a row of a
 * QVBoxLayout, aligned top-left so that its height is its heightForWidth. The app wants the note
 * "about R times as wide as it is tall" and applies that in the label's resizeEvent, i.e. while the
 * window's layout runs (QLayout::activate -> setGeometry -> QResizeEvent): setFixedWidth(R x
 * height). R is picked from the label's own font so that the rule flips: one line tall -> R x one
 * line is too narrow for the text -> two lines; two lines tall -> R x two lines fits it on one line
 * -> one line... setFixedWidth() calls updateGeometry(), which posts a new LayoutRequest to the
 * window, whose layout resizes the note again: the note flips between 1 and 2 lines (and two
 * widths) in every layout pass, forever (the QTBUG-73683 kind of heightForWidth loop, made by the
 * app). Re-requesting function: fit_note_width (called from NoteLabel::resizeEvent).
 */
#include "qtcauses.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QResizeEvent>
#include <QVBoxLayout>

static const char kNote[] =
    "Version 2.4 fixes the sync of shared calendars and makes search twice as fast";

class NoteLabel : public QLabel {
  Q_OBJECT
public:
  explicit NoteLabel(const QString &text) : QLabel(text) {}
  double ratio = 4.0;
  bool fitting = false;

protected:
  void resizeEvent(QResizeEvent *e) override;
};

/* The bug: the note's width follows its own height (heightForWidth follows its width). */
__attribute__((noinline)) void fit_note_width(NoteLabel *note) {
  if (note->fitting) return; /* setFixedWidth() resizes the label at once: a nested resizeEvent */
  int want = qRound(note->ratio * note->height());
  if (want == note->minimumWidth() && want == note->maximumWidth()) return;
  note->fitting = true;
  cause::note("fit: %dx%d -> width %d", note->width(), note->height(), want);
  cause::rerequest();
  note->setFixedWidth(want);
  note->fitting = false;
}

void NoteLabel::resizeEvent(QResizeEvent *e) {
  QLabel::resizeEvent(e);
  fit_note_width(this);
}

int main(int argc, char **argv) {
  cause::init("wrap-label");
  QApplication app(argc, argv);
  QWidget window;
  window.setObjectName("main-window");
  window.setWindowTitle(cause::programName());
  auto *column = new QVBoxLayout(&window);
  /* the window keeps its size: the note's fixed width does not become the window's minimum */
  column->setSizeConstraint(QLayout::SetNoConstraint);
  auto *heading = new QLabel("What's new");
  heading->setObjectName("heading");
  column->addWidget(heading);
  auto *row = new QHBoxLayout;
  auto *note = new NoteLabel(QString::fromUtf8(kNote));
  note->setObjectName("note");
  note->setWordWrap(true);
  row->addWidget(note, 0, Qt::AlignLeft | Qt::AlignTop);
  row->addStretch(1);
  column->addLayout(row);
  column->addStretch(1);
  /* R between text/one-line-height and text/two-line-height: the rule can never settle. */
  int text = note->fontMetrics().horizontalAdvance(QString::fromUtf8(kNote));
  int one = note->heightForWidth(text + 20), two = note->heightForWidth(text * 2 / 3);
  note->ratio = 2.0 * text / (one + two);
  cause::note("text %d px, one line %d px, two lines %d px, ratio %.2f", text, one, two,
              note->ratio);
  window.resize(qMax(600, int(note->ratio * two) + 60), 160);
  cause::watchWidgetWindow(&window);
  return cause::run();
}

#include "wrap_label.moc"
