/*
 * qt_bench.cpp — layout-heavy Qt programs of fixed work, for scripts/bench/qt.sh (plain against
 * LoopHunter, time and callgrind instructions). Built for Qt 5 and Qt 6.
 *
 *   qt_bench widgets STEPS   a panel of 12 x 20 labels and line edits in nested box and grid
 *                            layouts; each step resizes the panel (another width) and processes
 *                            events: every layout's geometry set, every widget resized
 *   qt_bench quick STEPS     a QML window of 240 Text items in a RowLayout of ColumnLayouts; each
 *                            step changes the window's width and renders a frame (grabWindow: polish,
 *                            sync, render): every layout polished, every item's geometry changed
 * Prints "qt_bench MODE: STEPS steps" and exits 0. Offscreen platform, software Quick backend.
 */
#include <QApplication>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QQmlApplicationEngine>
#include <QQuickWindow>
#include <QVBoxLayout>
#include <cstdio>
#include <cstdlib>
#include <cstring>

static int widgets(int steps) {
  QWidget window;
  auto *content = new QWidget(&window);
  auto *columns = new QHBoxLayout(content);
  for (int c = 0; c < 12; c++) {
    auto *grid = new QGridLayout;
    for (int r = 0; r < 20; r++) {
      grid->addWidget(new QLabel(QStringLiteral("Label %1.%2").arg(c).arg(r)), r, 0);
      grid->addWidget(new QLineEdit(QStringLiteral("%1").arg(r * c)), r, 1);
    }
    columns->addLayout(grid);
  }
  window.resize(1400, 700);
  content->resize(1200, 700);
  window.show();
  QCoreApplication::processEvents();
  for (int i = 0; i < steps; i++) {
    content->resize(1100 + (i % 2) * 200 + (i % 7) * 10, 700);
    QCoreApplication::processEvents();
  }
  return 0;
}

static const char kQml[] = R"QML(
import QtQuick 2.15
import QtQuick.Layouts 1.15
import QtQuick.Window 2.15
Window {
    width: 1200; height: 700; visible: true
    RowLayout {
        anchors.fill: parent
        Repeater {
            model: 12
            ColumnLayout {
                Layout.fillWidth: true
                Repeater {
                    model: 20
                    Text { Layout.fillWidth: true; text: "Item " + index; elide: Text.ElideRight }
                }
            }
        }
    }
}
)QML";

static int quick(int steps) {
  QQmlApplicationEngine engine;
  engine.loadData(QByteArray(kQml));
  if (engine.rootObjects().isEmpty()) return 1;
  auto *window = qobject_cast<QQuickWindow *>(engine.rootObjects().first());
  if (!window) return 1;
  QCoreApplication::processEvents();
  for (int i = 0; i < steps; i++) {
    window->setWidth(1100 + (i % 2) * 200 + (i % 7) * 10);
    QCoreApplication::processEvents();
    window->grabWindow();
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: qt_bench widgets|quick STEPS\n");
    return 2;
  }
  QApplication app(argc, argv);
  int steps = std::atoi(argv[2]);
  int status = std::strcmp(argv[1], "widgets") == 0 ? widgets(steps) : quick(steps);
  std::printf("qt_bench %s: %d steps\n", argv[1], steps);
  return status;
}
