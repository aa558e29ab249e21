// LOOPHUNTER-TRUTH: healthy
// QT-MODULES: Widgets
/* debounce_resize.cpp — a window resized every 50 ms whose panel re-wraps its caption after a
 * 30 ms debounce timer started in its resizeEvent.
 *
 * A gallery panel (CaptionPanel) shows a caption QLabel under a picture frame. Re-wrapping the
 * caption on every resize step would be slow, so the panel debounces: its resizeEvent restarts a
 * single-shot 30 ms QTimer member, whose timeout sets the caption's fixed width to the panel's
 * width minus 40 (a layout request). A 50 ms timer resizes the window between 320 and 520 px (a
 * triangle wave, period 2 s): every drive's relayout starts the debounce timer, which fires 30 ms
 * later and relays the caption out once; the caption's width never changes the panel's. Drives:
 * every timer tick.
 */
#include "qtcauses.h"

#include <QLabel>
#include <QResizeEvent>
#include <QVBoxLayout>
#include <algorithm>

class CaptionPanel : public QWidget {
  Q_OBJECT
public:
  QLabel *caption = nullptr;
  QTimer debounce;

protected:
  void resizeEvent(QResizeEvent *e) override {
    QWidget::resizeEvent(e);
    debounce.start();
  }
};

int main(int argc, char **argv) {
  cause::init("debounce-resize");
  QApplication app(argc, argv);
  QWidget window;
  window.setObjectName("main-window");
  window.setWindowTitle(cause::programName());
  auto *column = new QVBoxLayout(&window);
  column->setSizeConstraint(QLayout::SetNoConstraint); /* the timer alone sizes the window */
  auto *panel = new CaptionPanel;
  panel->setObjectName("panel");
  auto *inner = new QVBoxLayout(panel);
  auto *picture = new QLabel("picture");
  picture->setObjectName("picture");
  picture->setMinimumHeight(120);
  picture->setAlignment(Qt::AlignCenter);
  auto *caption = new QLabel("Sunset over the harbour, taken from the old lighthouse on a windy "
                             "evening in late October.");
  caption->setObjectName("caption");
  caption->setWordWrap(true);
  panel->caption = caption;
  inner->addWidget(picture, 1);
  inner->addWidget(caption, 0, Qt::AlignLeft);
  column->addWidget(panel);
  panel->debounce.setSingleShot(true);
  panel->debounce.setInterval(30);
  QObject::connect(&panel->debounce, &QTimer::timeout, panel, [panel]() {
    panel->caption->setFixedWidth(std::max(80, panel->width() - 40));
  });
  window.resize(320, 260);

  cause::resizeWindowWidth(&window, 320, 520, 260);
  cause::watchWidgetWindow(&window);
  return cause::run();
}

#include "debounce_resize.moc"
