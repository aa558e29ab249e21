import Foundation
import LoopHunterShip

/// Shows a shipping run's events on stderr in the chosen ``ProgressStyle``.
final class ShipProgressPrinter: @unchecked Sendable {
    private let style: ProgressStyle
    private let lock = NSLock()
    private var lastDraw = Date.distantPast
    private var barShown = false
    private var rejectionsShown = 0
    private var waiting: String?

    /// Rejections named one by one; past this, one line says more follow.
    private static let rejectionLines = 20

    init(style: ProgressStyle) {
        self.style = style
    }

    /// Bar on a terminal, lines otherwise.
    static func automatic() -> ShipProgressPrinter {
        ShipProgressPrinter(style: isatty(2) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb" ? .bar : .lines)
    }

    func handle(_ event: ShipEvent, _ summary: ShipSummary) {
        lock.lock()
        defer { lock.unlock() }
        switch event {
        case .started:
            if style != .quiet && summary.queued > 0 { line("shipping \(summary.queued) report\(summary.queued == 1 ? "" : "s")") }
        case .queued:
            break
        case .delivered:
            waiting = nil
            if style == .lines && Date().timeIntervalSince(lastDraw) >= 1 {
                lastDraw = Date()
                line("\(summary.sent) of \(summary.queued) sent")
            }
        case .rejected(let name, let reason):
            rejectionsShown += 1
            if rejectionsShown <= Self.rejectionLines {
                line("rejected \(name): \(reason)")
            } else if rejectionsShown == Self.rejectionLines + 1 {
                line("more reports rejected; the final line counts them")
            }
        case .waiting(let seconds, let reason):
            waiting = "\(reason); next try in \(String(format: "%.1f", seconds)) s"
            if style != .bar { line(waiting!) }
        case .notice(let text):
            line(text)
        }
        if style == .bar { drawBar(summary) }
    }

    /// Clears the bar before the final line.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if barShown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        barShown = false
    }

    private func line(_ text: String) {
        if barShown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)); barShown = false }
        Diagnostics.say(text)
    }

    private func drawBar(_ summary: ShipSummary) {
        let now = Date()
        guard now.timeIntervalSince(lastDraw) >= 0.1 || !barShown else { return }
        lastDraw = now
        let total = max(summary.queued, summary.settled, 1)
        let width = 30
        let filled = min(width, width * summary.settled / total)
        var text = "\r\u{1B}[K[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
            + "\(summary.sent)/\(summary.queued) sent"
        if summary.rejected + summary.setAside > 0 { text += ", \(summary.rejected + summary.setAside) rejected" }
        if let waiting { text += " · \(waiting)" }
        FileHandle.standardError.write(Data(text.utf8))
        barShown = true
    }
}
