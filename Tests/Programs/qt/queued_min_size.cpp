// LOOPHUNTER-TRUTH: loop object=QFrame,SidebarPanel name=preview,sidebar cause=deferred function=apply_preview_min_width
// QT-MODULES: Widgets
/* queued_min_size.cpp — a sidebar's resizeEvent sets its sibling's minimum width through a queued call.
 *
 * An editor window: a sidebar (SidebarPanel, a QFrame subclass, stretch 1) and a preview (a
 * QFrame, stretch 0: it gets its minimum width; a QLabel would not, its cached size hint keeps an
 * old minimum) side by side in a QHBoxLayout of a 640 px window. The app "balances" them from
 * the sidebar's resizeEvent: a wide sidebar (> 250 px) means a big screen, so the preview gets
 * room (minimum width 400); a narrow one means a small screen, so the preview shrinks (minimum
 * width 200). Changing a sibling inside resizeEvent re-enters the layout, so the
 * change is posted with QMetaObject::invokeMethod(..., Qt::QueuedConnection). Preview 400 ->
 * sidebar ~220 -> preview 200 -> sidebar ~420 -> preview 400...: both widgets change width in every
 * layout pass, forever. Re-requesting function: apply_preview_min_width (the queued call).
 */
#include "qtcauses.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QResizeEvent>

class SidebarPanel : public QFrame {
  Q_OBJECT
public:
  QFrame *preview = nullptr;
  int pending = -1;

protected:
  void resizeEvent(QResizeEvent *e) override;
};

/* The bug: the preview's minimum width follows the sidebar's width, which follows it. */
__attribute__((noinline)) void apply_preview_min_width(SidebarPanel *sidebar, int width) {
  sidebar->pending = -1;
  cause::note("preview minimum width %d (sidebar %d)", width, sidebar->width());
  cause::rerequest();
  sidebar->preview->setMinimumWidth(width);
}

void SidebarPanel::resizeEvent(QResizeEvent *e) {
  QFrame::resizeEvent(e);
  int want = width() > 250 ? 400 : 200;
  if (want == preview->minimumWidth() || want == pending) return;
  pending = want;
  QMetaObject::invokeMethod(
      this, [this, want]() { apply_preview_min_width(this, want); }, Qt::QueuedConnection);
}

int main(int argc, char **argv) {
  cause::init("queued-min-size");
  QApplication app(argc, argv);
  QWidget window;
  window.setObjectName("main-window");
  window.setWindowTitle(cause::programName());
  auto *row = new QHBoxLayout(&window);
  row->setSizeConstraint(QLayout::SetNoConstraint); /* the window keeps its 640 px */
  auto *sidebar = new SidebarPanel;
  sidebar->setObjectName("sidebar");
  sidebar->setFrameShape(QFrame::StyledPanel);
  sidebar->setMinimumWidth(100);
  auto *preview = new QFrame;
  preview->setObjectName("preview");
  preview->setFrameShape(QFrame::Box);
  preview->setMinimumWidth(400);
  preview->setSizePolicy(QSizePolicy::Minimum, QSizePolicy::Preferred);
  sidebar->preview = preview;
  row->addWidget(sidebar, 1);
  row->addWidget(preview, 0);
  window.resize(640, 240);
  cause::watchWidgetWindow(&window);
  return cause::run();
}

#include "queued_min_size.moc"
