// LOOPHUNTER-TRUTH: loop object=QLabel,BadgeBar name=badge,badge-bar cause=deferred function=refit_badge
// QT-MODULES: Widgets
/* timer_member.cpp — a bar refits its badge from a single-shot QTimer member started in its
 * resizeEvent, and the badge's width moves the bar.
 *
 * A tab bar with a badge (BadgeBar, a QWidget subclass, stretch 1, beside a fixed 160 px search
 * box and the badge QLabel, stretch 0, in a 520 px window). The bar keeps a single-shot zero
 * QTimer (`refit`, started with `refit.start()` from resizeEvent, the usual "do it after the
 * layout" idiom) whose timeout picks the badge's text: the long form "12 unread messages" when
 * the bar is wider than 200 px, the short "12" otherwise. The long badge leaves the bar less than
 * 200 px, the short one more: the badge flips in every layout pass, forever. Re-requesting
 * function: refit_badge (the timer's slot).
 */
#include "qtcauses.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QResizeEvent>

class BadgeBar : public QWidget {
  Q_OBJECT
public:
  QLabel *badge = nullptr;
  QTimer refit;

protected:
  void resizeEvent(QResizeEvent *e) override {
    QWidget::resizeEvent(e);
    refit.start();
  }
};

/* The bug: the badge's wording follows the bar's width, which follows the badge. */
__attribute__((noinline)) void refit_badge(BadgeBar *bar) {
  const QString want = bar->width() > 200 ? QStringLiteral("12 unread messages") : QStringLiteral("12");
  if (bar->badge->text() == want) return;
  cause::note("badge '%s' (bar %d)", qPrintable(want), bar->width());
  cause::rerequest();
  bar->badge->setText(want);
}

int main(int argc, char **argv) {
  cause::init("timer-member");
  QApplication app(argc, argv);
  QWidget window;
  window.setObjectName("main-window");
  window.setWindowTitle(cause::programName());
  auto *row = new QHBoxLayout(&window);
  row->setSizeConstraint(QLayout::SetNoConstraint); /* the window keeps its 520 px */
  auto *bar = new BadgeBar;
  bar->setObjectName("badge-bar");
  bar->setMinimumWidth(60);
  auto *search = new QLabel("search");
  search->setObjectName("search");
  search->setFixedWidth(160);
  auto *badge = new QLabel("12");
  badge->setObjectName("badge");
  bar->badge = badge;
  bar->refit.setSingleShot(true);
  bar->refit.setInterval(0);
  QObject::connect(&bar->refit, &QTimer::timeout, bar, [bar]() { refit_badge(bar); });
  row->addWidget(bar, 1);
  row->addWidget(search, 0);
  row->addWidget(badge, 0);
  window.resize(520, 60);
  cause::watchWidgetWindow(&window);
  return cause::run();
}

#include "timer_member.moc"
