// LOOPHUNTER-TRUTH: loop object=StatusLabel,QLabel name=ping,pong cause=deferred function=ping_timeout,pong_timeout
// QT-MODULES: Widgets
/* ping_pong.cpp — two sibling labels that change each other's text through zero timers, forever.
 *
 * A header with two status labels, "ping" (a connection summary) and "pong" (a transfer summary),
 * left-aligned in a QVBoxLayout (each as wide as its text). Each picks its wording from the
 * other's width so that the pair "balances": when ping came out wide, pong switches to its compact
 * text; when pong came out wide, ping switches to its long text. Each label reacts in its own
 * resizeEvent (StatusLabel, a QLabel subclass) with QTimer::singleShot(0, ...), because setting a
 * sibling's text inside resizeEvent re-enters the layout. The four states cycle: (long, long) ->
 * pong compact -> ping compact -> pong long -> ping long -> ..., one step per layout pass, a text
 * and a size change every time. Re-requesting functions: ping_timeout (sets pong's text) and
 * pong_timeout (sets ping's).
 */
#include "qtcauses.h"

#include <QLabel>
#include <QResizeEvent>
#include <QVBoxLayout>

static const char kPingLong[] = "Connected to mail.example.org over TLS 1.3";
static const char kPingShort[] = "Online";
static const char kPongLong[] = "Receiving 1,204 messages in 3 folders";
static const char kPongShort[] = "Syncing";

class StatusLabel : public QLabel {
  Q_OBJECT
public:
  explicit StatusLabel(const char *text) : QLabel(QString::fromUtf8(text)) {}
  void (*resized)(StatusLabel *) = nullptr;

protected:
  void resizeEvent(QResizeEvent *e) override {
    QLabel::resizeEvent(e);
    if (resized) resized(this);
  }
};

static StatusLabel *ping, *pong;
static int pingThreshold, pongThreshold;
static const char *pongPending, *pingPending;
static bool pingScheduled, pongScheduled;

/* ping was laid out: pong's wording. */
__attribute__((noinline)) void ping_timeout() {
  pingScheduled = false;
  cause::rerequest();
  pong->setText(QString::fromUtf8(pongPending));
}

/* pong was laid out: ping's wording. */
__attribute__((noinline)) void pong_timeout() {
  pongScheduled = false;
  cause::rerequest();
  ping->setText(QString::fromUtf8(pingPending));
}

static void pingResized(StatusLabel *label) {
  const char *want = label->width() >= pingThreshold ? kPongShort : kPongLong;
  if (pong->text() == QString::fromUtf8(want)) return;
  pongPending = want;
  if (!pingScheduled) {
    pingScheduled = true;
    QTimer::singleShot(0, ping, ping_timeout);
  }
}

static void pongResized(StatusLabel *label) {
  const char *want = label->width() >= pongThreshold ? kPingLong : kPingShort;
  if (ping->text() == QString::fromUtf8(want)) return;
  pingPending = want;
  if (!pongScheduled) {
    pongScheduled = true;
    QTimer::singleShot(0, pong, pong_timeout);
  }
}

int main(int argc, char **argv) {
  cause::init("ping-pong");
  QApplication app(argc, argv);
  QWidget window;
  window.setObjectName("main-window");
  window.setWindowTitle(cause::programName());
  auto *column = new QVBoxLayout(&window);
  column->setSizeConstraint(QLayout::SetNoConstraint);
  ping = new StatusLabel(kPingLong);
  pong = new StatusLabel(kPongLong);
  ping->setObjectName("ping");
  pong->setObjectName("pong");
  const QFontMetrics fm = ping->fontMetrics();
  pingThreshold = (fm.horizontalAdvance(kPingLong) + fm.horizontalAdvance(kPingShort)) / 2;
  pongThreshold = (fm.horizontalAdvance(kPongLong) + fm.horizontalAdvance(kPongShort)) / 2;
  ping->resized = pingResized;
  pong->resized = pongResized;
  column->addWidget(ping, 0, Qt::AlignLeft);
  column->addWidget(pong, 0, Qt::AlignLeft);
  column->addStretch(1);
  window.resize(420, 90);
  cause::watchWidgetWindow(&window);
  return cause::run();
}

#include "ping_pong.moc"
