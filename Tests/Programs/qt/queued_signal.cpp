// LOOPHUNTER-TRUTH: loop object=QFrame,BalancedPanel name=preview,sidebar cause=deferred function=apply_balance
// QT-MODULES: Widgets
/* queued_signal.cpp — a panel's resizeEvent emits a signal connected with Qt::QueuedConnection to
 * a slot that sets its sibling's minimum width.
 *
 * `queued_min_size` with a signal instead of invokeMethod: the sidebar (BalancedPanel, stretch 1)
 * announces its width from its resizeEvent (`emit widthSettled(width())`); the window connected
 * that signal with Qt::QueuedConnection (so as not to re-enter the layout) to a slot that gives the
 * preview (stretch 0) room on a wide sidebar (> 250 px: minimum width 400) and takes it away on a
 * narrow one (200). In a 640 px window: preview 400 -> sidebar ~220 -> preview 200 -> sidebar ~420
 * -> preview 400...: both widths change in every layout pass, forever. Qt posts the queued call
 * inside QtCore, from QMetaObject::activate. Re-requesting function: apply_balance (the slot).
 */
#include "qtcauses.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QResizeEvent>

class BalancedPanel : public QFrame {
  Q_OBJECT
signals:
  void widthSettled(int width);

protected:
  void resizeEvent(QResizeEvent *e) override {
    QFrame::resizeEvent(e);
    emit widthSettled(width());
  }
};

/* The bug: the preview's minimum width follows the sidebar's width, which follows it. */
__attribute__((noinline)) void apply_balance(QFrame *preview, int sidebarWidth) {
  const int want = sidebarWidth > 250 ? 400 : 200;
  if (want == preview->minimumWidth()) return;
  cause::note("preview minimum width %d (sidebar %d)", want, sidebarWidth);
  cause::rerequest();
  preview->setMinimumWidth(want);
}

int main(int argc, char **argv) {
  cause::init("queued-signal");
  QApplication app(argc, argv);
  QWidget window;
  window.setObjectName("main-window");
  window.setWindowTitle(cause::programName());
  auto *row = new QHBoxLayout(&window);
  row->setSizeConstraint(QLayout::SetNoConstraint); /* the window keeps its 640 px */
  auto *sidebar = new BalancedPanel;
  sidebar->setObjectName("sidebar");
  sidebar->setFrameShape(QFrame::StyledPanel);
  sidebar->setMinimumWidth(100);
  auto *preview = new QFrame;
  preview->setObjectName("preview");
  preview->setFrameShape(QFrame::Box);
  preview->setMinimumWidth(400);
  preview->setSizePolicy(QSizePolicy::Minimum, QSizePolicy::Preferred);
  row->addWidget(sidebar, 1);
  row->addWidget(preview, 0);
  QObject::connect(
      sidebar, &BalancedPanel::widthSettled, preview, [preview](int width) { apply_balance(preview, width); },
      Qt::QueuedConnection);
  window.resize(640, 240);
  cause::watchWidgetWindow(&window);
  return cause::run();
}

#include "queued_signal.moc"
