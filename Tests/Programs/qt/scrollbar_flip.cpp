// LOOPHUNTER-TRUTH: loop object=FitPicture,QWidget name=picture cause=in-layout function=fit_picture_height
// QT-MODULES: Widgets
/* scrollbar_flip.cpp — a square picture in a QScrollArea whose vertical scrollbar comes and goes.
 *
 * A picture (FitPicture, a QWidget subclass) keeps a 1:1 aspect ratio inside a QScrollArea
 * (widgetResizable, vertical scrollbar as needed) whose viewport is 4 px less tall than wide: in
 * its resizeEvent — called by the scroll area's layout (QScrollArea's resizeEvent / LayoutRequest
 * -> updateScrollBars -> widget resize) — it sets its minimum height to its width. Without the
 * vertical scrollbar it is as wide as the viewport, so 4 px too tall: the scroll area shows the
 * scrollbar; with it, it is a scrollbar narrower, so it fits: QScrollArea hides the scrollbar
 * again... Width and height flip every layout pass, forever. Re-requesting function:
 * fit_picture_height (called from FitPicture::resizeEvent).
 */
#include "qtcauses.h"

#include <QPainter>
#include <QResizeEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QStyle>
#include <QVBoxLayout>

class FitPicture : public QWidget {
  Q_OBJECT
protected:
  void resizeEvent(QResizeEvent *e) override;
  void paintEvent(QPaintEvent *) override {
    QPainter p(this);
    for (int y = 0; y < height(); y += 20)
      for (int x = (y / 20) % 2 * 20; x < width(); x += 40) p.fillRect(x, y, 20, 20, Qt::darkCyan);
  }
};

/* The bug: the picture's height follows its width, which follows the scrollbar it causes. */
__attribute__((noinline)) void fit_picture_height(FitPicture *picture) {
  if (picture->minimumHeight() == picture->width()) return;
  cause::note("picture %dx%d -> minimum height %d", picture->width(), picture->height(),
              picture->width());
  cause::rerequest();
  picture->setMinimumHeight(picture->width());
}

void FitPicture::resizeEvent(QResizeEvent *e) {
  QWidget::resizeEvent(e);
  fit_picture_height(this);
}

int main(int argc, char **argv) {
  cause::init("scrollbar-flip");
  QApplication app(argc, argv);
  QWidget window;
  window.setObjectName("main-window");
  window.setWindowTitle(cause::programName());
  auto *column = new QVBoxLayout(&window);
  column->setSizeConstraint(QLayout::SetNoConstraint);
  auto *scroller = new QScrollArea;
  scroller->setObjectName("scroller");
  scroller->setFrameShape(QFrame::NoFrame);
  scroller->setWidgetResizable(true);
  scroller->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  scroller->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  auto *picture = new FitPicture;
  picture->setObjectName("picture");
  scroller->setWidget(picture);
  /* viewport 240 x 236 without the scrollbar; 240 - scrollbar x 236 with it */
  scroller->setFixedSize(240, 236);
  column->addWidget(scroller, 0, Qt::AlignLeft | Qt::AlignTop);
  window.resize(280, 280);
  cause::note("scrollbar extent %d", scroller->style()->pixelMetric(QStyle::PM_ScrollBarExtent));
  cause::watchWidgetWindow(&window);
  return cause::run();
}

#include "scrollbar_flip.moc"
