// LOOPHUNTER-TRUTH: loop object=ChartItem,AxisItem name=chart,axis cause=deferred,in-layout function=request_chart_relayout,updatePolish
// QT-MODULES: Quick
/* quick_polish.cpp — a C++ chart item whose updatePolish() polishes its axis, which re-polishes the chart.
 *
 * ChartItem (a QQuickItem subclass registered for QML as Chart, "chart") lays out a y axis
 * (AxisItem, "axis", its child) and the plot area in updatePolish(): the axis gets the width of
 * its tick labels, the plot the rest, and the axis gets one tick per 40 px of plot — and is
 * polished (axis->polish(), same frame) to lay its labels out. AxisItem::updatePolish() picks the
 * label format from the tick count (more than 6 ticks: a finer step, decimals, a 48 px axis; else
 * integers, a 24 px axis) and, when its width changed, asks the chart to lay out again. Polishing
 * the chart from inside updatePolish() would be a polish loop inside one frame, which Qt 5.15 and
 * 6.4 never leave, so it is queued (QMetaObject::invokeMethod, Qt::QueuedConnection) and runs
 * before the next frame. In a 316 px chart: narrow axis -> 7 ticks -> wide axis -> 6 ticks ->
 * narrow axis...: the chart and its axis are polished in every frame, forever.
 * Re-requesting function: request_chart_relayout (the queued call, deferred: the chart polished
 * again) or ChartItem::updatePolish (in layout: the axis polished in the same frame), the two halves
 * of the cycle; either request closes the loop.
 */
#include "qtcauses.h"

#include <QQmlEngine>
#include <QSGSimpleRectNode>

class ChartItem;

class AxisItem : public QQuickItem {
  Q_OBJECT
public:
  explicit AxisItem(QQuickItem *parent = nullptr) : QQuickItem(parent) {
    setFlag(ItemHasContents, true);
  }
  ChartItem *chart = nullptr;
  int ticks = 0;
  int labelWidth = 24;
  bool queued = false;

protected:
  void updatePolish() override;
  QSGNode *updatePaintNode(QSGNode *old, UpdatePaintNodeData *) override {
    auto *node = static_cast<QSGSimpleRectNode *>(old);
    if (!node) node = new QSGSimpleRectNode(boundingRect(), QColor(200, 200, 220));
    node->setRect(boundingRect());
    return node;
  }
};

class ChartItem : public QQuickItem {
  Q_OBJECT
public:
  explicit ChartItem(QQuickItem *parent = nullptr) : QQuickItem(parent) {
    setFlag(ItemHasContents, true);
    axis = new AxisItem(this);
    axis->setObjectName(QStringLiteral("axis"));
    axis->chart = this;
  }
  AxisItem *axis;

protected:
  void updatePolish() override {
    cause::laidOut(this);
    axis->setPosition(QPointF(0, 0));
    axis->setSize(QSizeF(axis->labelWidth, height()));
    const int plot = int(width()) - axis->labelWidth;
    const int ticks = plot / 40;
    cause::note("chart: axis %d, plot %d -> %d ticks", axis->labelWidth, plot, ticks);
    if (ticks != axis->ticks) {
      axis->ticks = ticks;
      axis->polish(); /* the axis lays its labels out in this frame's polish phase */
    }
  }
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
    if (!node) node = new QSGSimpleRectNode(boundingRect(), QColor(240, 240, 250));
    node->setRect(boundingRect());
    return node;
  }
};

/* The bug: the chart re-lays itself out for an axis width that its layout decides. */
__attribute__((noinline)) void request_chart_relayout(AxisItem *axis) {
  axis->queued = false;
  cause::rerequest();
  axis->chart->polish();
}

void AxisItem::updatePolish() {
  cause::laidOut(this);
  const int want = ticks > 6 ? 48 : 24;
  cause::note("axis: %d ticks -> %d px labels", ticks, want);
  if (want == labelWidth) return;
  labelWidth = want;
  if (queued) return;
  queued = true;
  QMetaObject::invokeMethod(
      this, [this]() { request_chart_relayout(this); }, Qt::QueuedConnection);
}

static const char kQml[] = R"QML(
import QtQuick 2.15
import QtQuick.Window 2.15
import Causes 1.0

Window {
    objectName: "main-window"
    title: "quick-polish"
    visible: true
    width: 340
    height: 150
    Chart {
        objectName: "chart"
        x: 12; y: 12
        width: 316
        height: 120
    }
}
)QML";

int main(int argc, char **argv) {
  return cause::qmlMain(argc, argv, "quick-polish", kQml, [](QQmlApplicationEngine &) {
    qmlRegisterType<ChartItem>("Causes", 1, 0, "Chart");
  });
}

#include "quick_polish.moc"
