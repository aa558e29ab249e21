// LOOPHUNTER-TRUTH: loop object=QLabel,QWidget name=badge,badge-row cause=in-layout function=fit_badge
// QT-MODULES: Widgets
/* custom_layout.cpp — a custom QLayout whose setGeometry() changes a child's minimum width.
 *
 * A row (QWidget "badge-row") is laid out by the app's own QLayout (BadgeLayout): a title label
 * takes what is left of the row after a badge label, which gets exactly its minimum width. In
 * setGeometry() — while the row's layout runs — the layout "gives the title priority": when the
 * title got less than its size hint the badge goes compact (minimum width 90), when the title has
 * room the badge goes full (minimum width 220). It decides from the widths it just handed out, not
 * from what they would be after the switch: with the badge full the title is squeezed -> compact;
 * with the badge compact the title has room -> full... setMinimumWidth() calls updateGeometry(),
 * which invalidates the row's layout and posts a new LayoutRequest: the badge and the title change
 * width in every layout pass, forever. Re-requesting function: fit_badge (called from
 * BadgeLayout::setGeometry).
 */
#include "qtcauses.h"

#include <QLabel>
#include <QLayout>
#include <QVBoxLayout>

class BadgeLayout : public QLayout {
  Q_OBJECT
public:
  QLabel *title = nullptr, *badge = nullptr;
  QList<QLayoutItem *> items;
  ~BadgeLayout() override {
    while (!items.isEmpty()) delete items.takeFirst();
  }
  void addItem(QLayoutItem *item) override { items.append(item); }
  int count() const override { return items.size(); }
  QLayoutItem *itemAt(int i) const override { return items.value(i); }
  QLayoutItem *takeAt(int i) override {
    return i >= 0 && i < items.size() ? items.takeAt(i) : nullptr;
  }
  QSize sizeHint() const override {
    return QSize(title->sizeHint().width() + spacing() + badge->minimumWidth(),
                 qMax(title->sizeHint().height(), badge->sizeHint().height())) +
           QSize(contentsMargins().left() + contentsMargins().right(),
                 contentsMargins().top() + contentsMargins().bottom());
  }
  QSize minimumSize() const override { return QSize(100, sizeHint().height()); }
  void setGeometry(const QRect &r) override;
};

/* The bug: the badge's width is picked from the title width it produced. */
__attribute__((noinline)) void fit_badge(QLabel *title, QLabel *badge) {
  int want = title->width() < title->sizeHint().width() ? 90 : 220;
  if (badge->minimumWidth() == want) return;
  cause::note("title %d of %d -> badge %d", title->width(), title->sizeHint().width(), want);
  cause::rerequest();
  badge->setMinimumWidth(want);
}

void BadgeLayout::setGeometry(const QRect &rect) {
  QLayout::setGeometry(rect);
  const QRect r = contentsRect();
  const int badgeWidth = qMin(badge->minimumWidth(), r.width());
  const int titleWidth = qMax(0, r.width() - badgeWidth - spacing());
  title->setGeometry(QRect(r.left(), r.top(), titleWidth, r.height()));
  badge->setGeometry(QRect(r.left() + titleWidth + spacing(), r.top(), badgeWidth, r.height()));
  fit_badge(title, badge);
}

int main(int argc, char **argv) {
  cause::init("custom-layout");
  QApplication app(argc, argv);
  QWidget window;
  window.setObjectName("main-window");
  window.setWindowTitle(cause::programName());
  auto *column = new QVBoxLayout(&window);
  column->setSizeConstraint(QLayout::SetNoConstraint);
  auto *row = new QWidget;
  row->setObjectName("badge-row");
  auto *layout = new BadgeLayout;
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(6);
  auto *title = new QLabel("Invoice 2024-117: Northwind Traders");
  title->setObjectName("title");
  auto *badge = new QLabel("Overdue since 12 March, reminder sent");
  badge->setObjectName("badge");
  badge->setMinimumWidth(220);
  layout->title = title;
  layout->badge = badge;
  layout->addWidget(title);
  layout->addWidget(badge);
  row->setLayout(layout);
  column->addWidget(row);
  column->addStretch(1);
  /* the row is between "title hint + compact badge" and "title hint + full badge" wide */
  const int hint = title->sizeHint().width();
  window.resize(hint + 6 + 155 + 2 * column->contentsMargins().left(), 80);
  cause::watchWidgetWindow(&window);
  return cause::run();
}

#include "custom_layout.moc"
