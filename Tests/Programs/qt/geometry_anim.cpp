// LOOPHUNTER-TRUTH: healthy
// QT-MODULES: Widgets
/* geometry_anim.cpp — a QPropertyAnimation slides a drawer's geometry back and forth, forever.
 *
 * A drawer (QFrame "drawer", with a QVBoxLayout of labels and a button) in a plain container is
 * animated by a QPropertyAnimation of its "geometry" from 120 to 360 px wide and back (800 ms
 * each way, InOutQuad, looping): the drawer is resized and its layout re-runs in every animation
 * step, driven by Qt's animation timer (QUnifiedTimer, ~60 Hz), never by layout.
 * Drives: every valueChanged of the animation.
 */
#include "qtcauses.h"

#include <QFrame>
#include <QLabel>
#include <QPropertyAnimation>
#include <QPushButton>
#include <QSequentialAnimationGroup>
#include <QVBoxLayout>

int main(int argc, char **argv) {
  cause::init("geometry-anim");
  QApplication app(argc, argv);
  QWidget window;
  window.setObjectName("main-window");
  window.setWindowTitle(cause::programName());
  auto *drawer = new QFrame(&window);
  drawer->setObjectName("drawer");
  drawer->setFrameShape(QFrame::StyledPanel);
  auto *column = new QVBoxLayout(drawer);
  auto *title = new QLabel("Filters");
  title->setObjectName("drawer-title");
  column->addWidget(title);
  auto *hint = new QLabel("Show only unread messages from the last seven days");
  hint->setObjectName("drawer-hint");
  hint->setWordWrap(true);
  column->addWidget(hint);
  column->addWidget(new QPushButton("Apply"));
  column->addStretch(1);
  drawer->setGeometry(0, 0, 120, 200);
  window.resize(400, 200);

  auto *open = new QPropertyAnimation(drawer, "geometry");
  open->setDuration(800);
  open->setStartValue(QRect(0, 0, 120, 200));
  open->setEndValue(QRect(0, 0, 360, 200));
  open->setEasingCurve(QEasingCurve::InOutQuad);
  auto *close = new QPropertyAnimation(drawer, "geometry");
  close->setDuration(800);
  close->setStartValue(QRect(0, 0, 360, 200));
  close->setEndValue(QRect(0, 0, 120, 200));
  close->setEasingCurve(QEasingCurve::InOutQuad);
  for (auto *a : {open, close})
    QObject::connect(a, &QVariantAnimation::valueChanged, drawer,
                     [drawer]() { cause::drive(drawer); });
  QSequentialAnimationGroup group;
  group.addAnimation(open);
  group.addAnimation(close);
  group.setLoopCount(-1);
  group.start();
  cause::watchWidgetWindow(&window);
  return cause::run();
}
