// LOOPHUNTER-TRUTH: loop object=FitView,QGraphicsView name=view cause=deferred function=fit_view_timeout
// QT-MODULES: Widgets
/* graphics_fit.cpp — a QGraphicsView that refits its picture after every resize, scrollbars flipping.
 *
 * A photo viewer: a 400 x 390 picture in a QGraphicsScene shown by a 400 x 400 QGraphicsView
 * (FitView, a subclass; scrollbars as needed) that "fills the view" after every resize with
 * fitInView(sceneRect(), Qt::KeepAspectRatioByExpanding). Called from resizeEvent itself,
 * fitInView recurses through the scrollbars it toggles (here: for seconds inside one event), so
 * the viewer defers it with a zero timer. Filling 400 x 400 scales the picture to 410 x 400: a
 * horizontal scrollbar appears, the viewport becomes 400 x 386; filling that scales it back to
 * 400 x 390: the scrollbar goes, the viewport is 400 x 400 again...: the viewport is resized and
 * the view relaid out in every pass, forever. Re-requesting function: fit_view_timeout (the zero
 * timer added by FitView::resizeEvent).
 */
#include "qtcauses.h"

#include <QGraphicsScene>
#include <QGraphicsView>
#include <QResizeEvent>
#include <QVBoxLayout>

class FitView : public QGraphicsView {
  Q_OBJECT
public:
  using QGraphicsView::QGraphicsView;
  bool scheduled = false;

protected:
  void resizeEvent(QResizeEvent *e) override;
};

/* The bug: the fit changes the scrollbars, which change the size it fits. */
__attribute__((noinline)) void fit_view_timeout(FitView *view) {
  view->scheduled = false;
  cause::note("fit: viewport %dx%d", view->viewport()->width(), view->viewport()->height());
  cause::rerequest();
  view->fitInView(view->sceneRect(), Qt::KeepAspectRatioByExpanding);
}

void FitView::resizeEvent(QResizeEvent *e) {
  QGraphicsView::resizeEvent(e);
  if (scheduled) return;
  scheduled = true;
  QTimer::singleShot(0, this, [this]() { fit_view_timeout(this); });
}

int main(int argc, char **argv) {
  cause::init("graphics-fit");
  QApplication app(argc, argv);
  QWidget window;
  window.setObjectName("main-window");
  window.setWindowTitle(cause::programName());
  auto *column = new QVBoxLayout(&window);
  column->setSizeConstraint(QLayout::SetNoConstraint);
  QGraphicsScene scene(0, 0, 400, 390);
  scene.addRect(0, 0, 400, 390, QPen(Qt::darkGray), QBrush(QColor(200, 220, 240)));
  scene.addEllipse(100, 95, 200, 200, QPen(Qt::darkBlue), QBrush(QColor(250, 210, 120)));
  auto *view = new FitView(&scene);
  view->setObjectName("view");
  view->setFrameShape(QFrame::NoFrame);
  view->setFixedSize(400, 400);
  column->addWidget(view, 0, Qt::AlignLeft | Qt::AlignTop);
  window.resize(440, 440);
  cause::watchWidgetWindow(&window);
  return cause::run();
}

#include "graphics_fit.moc"
