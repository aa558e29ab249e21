// LOOPHUNTER-TRUTH: loop object=SparklineItem name=sparkline cause=deferred function=sparkline_second_pass
// QT-MODULES: Quick
/* quick_self_polish.cpp — an item that polishes itself again through the next frame, forever; no size changes.
 *
 * SparklineItem (a QQuickItem subclass registered for QML as Sparkline, "sparkline") lays out its
 * samples in updatePolish() in two passes: the first fits the samples to its width; the second
 * has to wait "until the labels have their size", so updatePolish() hooks the window's next
 * afterAnimating (emitted right after this frame's polish phase) and the hook re-polishes the item
 * (polishing from inside updatePolish() would be a polish loop inside one frame, which Qt 5.15 and
 * 6.4 never leave). The second pass is again an updatePolish(), which hooks the next
 * afterAnimating...: the item is polished in every frame, forever, and nothing ever changes size
 * (the Qt Quick cousin of GTK's self-requeue). Re-requesting function: sparkline_second_pass (the
 * afterAnimating hook added by updatePolish).
 */
#include "qtcauses.h"

#include <QQmlEngine>
#include <QSGSimpleRectNode>

class SparklineItem : public QQuickItem {
  Q_OBJECT
public:
  explicit SparklineItem(QQuickItem *parent = nullptr) : QQuickItem(parent) {
    setFlag(ItemHasContents, true);
  }
  QMetaObject::Connection hook;
  int samples = 0;

protected:
  void updatePolish() override;
#if QT_VERSION >= QT_VERSION_CHECK(6, 0, 0)
  void geometryChange(const QRectF &now, const QRectF &old) override {
    QQuickItem::geometryChange(now, old);
    polish();
  }
#else
  void geometryChanged(const QRectF &now, const QRectF &old) override {
    QQuickItem::geometryChanged(now, old);
    polish();
  }
#endif
  QSGNode *updatePaintNode(QSGNode *old, UpdatePaintNodeData *) override {
    auto *node = static_cast<QSGSimpleRectNode *>(old);
    if (!node) node = new QSGSimpleRectNode(boundingRect(), QColor(220, 240, 220));
    node->setRect(boundingRect());
    return node;
  }
};

/* The bug: the "second pass" always re-polishes, and every pass schedules another one. */
__attribute__((noinline)) void sparkline_second_pass(SparklineItem *item) {
  QObject::disconnect(item->hook);
  cause::rerequest();
  item->polish();
}

void SparklineItem::updatePolish() {
  cause::laidOut(this);
  samples = int(width()) / 4; /* the first pass: one sample per 4 px */
  if (!window() || hook) return;
  hook = connect(window(), &QQuickWindow::afterAnimating, this,
                 [this]() { sparkline_second_pass(this); });
}

static const char kQml[] = R"QML(
import QtQuick 2.15
import QtQuick.Window 2.15
import Causes 1.0

Window {
    objectName: "main-window"
    title: "quick-self-polish"
    visible: true
    width: 260
    height: 80
    Sparkline {
        objectName: "sparkline"
        x: 10; y: 10
        width: 240
        height: 60
    }
}
)QML";

int main(int argc, char **argv) {
  return cause::qmlMain(argc, argv, "quick-self-polish", kQml, [](QQmlApplicationEngine &) {
    qmlRegisterType<SparklineItem>("Causes", 1, 0, "Sparkline");
  });
}

#include "quick_self_polish.moc"
