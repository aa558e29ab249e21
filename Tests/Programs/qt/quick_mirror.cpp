// LOOPHUNTER-TRUTH: loop object=DocumentView,OverviewItem name=document,overview cause=in-layout function=mirror_to_overview,mirror_to_document
// QT-MODULES: Quick
/* quick_mirror.cpp — two items in two windows whose updatePolish() polishes the other, forever.
 *
 * A document window shows a page (DocumentView, "document") and an overview window shows its
 * thumbnail (OverviewItem, "overview"); both are QQuickItem subclasses registered for QML. Each
 * mirrors the other's layout from its updatePolish(), i.e. while its window's polish phase runs:
 * the document, once laid out, polishes the overview ("the thumbnail must follow the page"), and
 * the overview, once laid out, polishes the document ("the page shows the overview's viewport
 * frame"). Each window polishes only its own items in its frame, so the request lands in the other
 * window's next frame, which sends one back: the two windows take turns laying out, forever, with
 * no size change. (Inside one window the same mutual polish would be a polish loop inside one
 * frame, which Qt 5.15 and 6.4 never leave.) Re-requesting functions: mirror_to_overview (from
 * DocumentView::updatePolish) and mirror_to_document (from OverviewItem::updatePolish).
 */
#include "qtcauses.h"

#include <QQmlEngine>
#include <QSGSimpleRectNode>

class MirrorItem : public QQuickItem {
  Q_OBJECT
  Q_PROPERTY(QQuickItem *peer MEMBER peer)
public:
  explicit MirrorItem(QQuickItem *parent = nullptr) : QQuickItem(parent) {
    setFlag(ItemHasContents, true);
  }
  QQuickItem *peer = nullptr;

protected:
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
    if (!node) node = new QSGSimpleRectNode(boundingRect(), QColor(230, 230, 230));
    node->setRect(boundingRect());
    return node;
  }
};

class DocumentView : public MirrorItem {
  Q_OBJECT
protected:
  void updatePolish() override;
};

class OverviewItem : public MirrorItem {
  Q_OBJECT
protected:
  void updatePolish() override;
};

/* The bug, half one: the page's layout re-lays out the thumbnail. */
__attribute__((noinline)) void mirror_to_overview(QQuickItem *overview) {
  if (!overview) return;
  cause::rerequest();
  overview->polish();
}

/* The bug, half two: the thumbnail's layout re-lays out the page. */
__attribute__((noinline)) void mirror_to_document(QQuickItem *document) {
  if (!document) return;
  cause::rerequest();
  document->polish();
}

void DocumentView::updatePolish() {
  cause::laidOut(this);
  mirror_to_overview(peer);
}

void OverviewItem::updatePolish() {
  cause::laidOut(this);
  mirror_to_document(peer);
}

static const char kQml[] = R"QML(
import QtQuick 2.15
import QtQuick.Window 2.15
import Causes 1.0

Window {
    objectName: "main-window"
    title: "quick-mirror: document"
    visible: true
    width: 300
    height: 200
    DocumentView {
        id: document
        objectName: "document"
        anchors.fill: parent
        anchors.margins: 10
        peer: overview
    }
    property Window overviewWindow: Window {
        objectName: "overview-window"
        title: "quick-mirror: overview"
        visible: true
        x: 320
        width: 120
        height: 90
        OverviewItem {
            id: overview
            objectName: "overview"
            anchors.fill: parent
            anchors.margins: 5
            peer: document
        }
    }
}
)QML";

int main(int argc, char **argv) {
  return cause::qmlMain(argc, argv, "quick-mirror", kQml, [](QQmlApplicationEngine &) {
    qmlRegisterType<DocumentView>("Causes", 1, 0, "DocumentView");
    qmlRegisterType<OverviewItem>("Causes", 1, 0, "OverviewItem");
  });
}

#include "quick_mirror.moc"
