import Foundation
import LoopHunterReport
import LoopHunterTestSupport
import Testing

/// What LoopHunter saw: `run`'s verdict on the program it started (no summary, a snapshot, an exec,
/// a hand-off, no event loop), a directory with nothing in it, and the findings of what was seen:
/// grouping that never merges by `main`, one representative report per finding, "your code".
@Suite("verdicts: what was seen, and findings made of what was seen")
struct VerdictTests {
    static let summaryFile = "summary-4101-aaaa0001.json" // toykit-demo, pid 4101, 6 iterations

    /// The fixture summary as process `pid`, changed by `change`.
    static func summary(pid: Int, _ change: (inout [String: Any]) -> Void = { _ in }) throws -> Summary {
        try Fixtures.decodeSummary(Fixtures.edited(summaryFile) { object in
            var process = object["process"] as? [String: Any] ?? [:]
            process["pid"] = pid
            object["process"] = process
            change(&object)
        })
    }

    // MARK: run's verdict

    @Test("a program killed before it wrote a summary is named with its signal, and the run is blind")
    func killed() {
        let verdict = RunVerdict.judge(command: ["sh", "-c", "kill -SEGV $$"], pid: 77, end: .killed(SIGSEGV),
                                       summaries: [], reportCount: 0)
        #expect(verdict.blind)
        #expect(verdict.sentences == ["sh (pid 77) was killed by SIGSEGV and wrote no summary; LoopHunter did not see it run to the end."])
        let timeout = RunVerdict.judge(command: ["./app"], pid: 78, end: .killed(SIGTERM), summaries: [], reportCount: 0)
        #expect(timeout.sentences.first?.hasPrefix("app (pid 78) was killed by SIGTERM") == true)
        #expect(ProgramEnd.signalName(SIGKILL) == "SIGKILL" && ProgramEnd.signalName(40) == "signal 40")
    }

    @Test("a snapshot only, an exec into a program the preload missed, and a program that exited before any event loop")
    func notToTheEnd() throws {
        let snapshot = try Self.summary(pid: 90) { $0["state"] = "running" }
        let killed = RunVerdict.judge(command: ["gtk-app"], pid: 90, end: .killed(SIGKILL), summaries: [snapshot], reportCount: 0)
        #expect(killed.blind && killed.sentences == [
            "gtk-app (pid 90) was killed by SIGKILL; LoopHunter has only a snapshot of it from while it ran, and did not see it to the end.",
        ])
        let exec = try Self.summary(pid: 91) { $0["state"] = "exec"; $0["iterations"] = 0; $0["layout_calls"] = 0 }
        let reset = RunVerdict.judge(command: ["env", "LD_PRELOAD=", "gtk3-widget-factory"], pid: 91, end: .exited(0),
                                     summaries: [exec], reportCount: 0)
        #expect(reset.blind && reset.sentences.first?.contains("the preload never loaded into (LD_PRELOAD was reset") == true)
        let none = RunVerdict.judge(command: ["env", "LD_PRELOAD=", "gtk3-widget-factory"], pid: 92, end: .exited(0),
                                    summaries: [], reportCount: 0)
        #expect(none.blind && none.sentences == [
            "env (pid 92) exited with status 0 before LoopHunter saw an event loop in it; if it runs one, the preload never "
                + "loaded into it (LD_PRELOAD was reset, e.g. by `env LD_PRELOAD=`, or the program it started is statically "
                + "linked or set-user-ID).",
        ])
        let quiet = try Self.summary(pid: 93) { $0["state"] = "exited"; $0["iterations"] = 0; $0["layout_calls"] = 0 }
        let noLoop = RunVerdict.judge(command: ["sh", "-c", "exit 3"], pid: 93, end: .exited(3), summaries: [quiet], reportCount: 0)
        #expect(noLoop.blind && noLoop.sentences == ["sh (pid 93) exited with status 3 before LoopHunter saw an event loop in it."])
        let unreachable = RunVerdict.judge(command: ["./rel-static"], pid: 94, end: .exited(0), summaries: [], reportCount: 0,
                                           preloadProblem: "it is statically linked")
        #expect(unreachable.sentences == [
            "rel-static (pid 94) exited with status 0; the preload never loaded into it (it is statically linked), so LoopHunter saw nothing of it.",
        ])
    }

    @Test("seen to the end: no sentence; a script's children seen; findings are never blind")
    func seen() throws {
        let own = try Self.summary(pid: 100)
        #expect(RunVerdict.judge(command: ["toykit-demo"], pid: 100, end: .exited(0), summaries: [own], reportCount: 0)
                == RunVerdict(blind: false, sentences: []))
        let final = try Self.summary(pid: 100) { $0["state"] = "exited" }
        #expect(RunVerdict.judge(command: ["toykit-demo"], pid: 100, end: .exited(0), summaries: [final], reportCount: 0).sentences.isEmpty)
        // A shell script that started the program LoopHunter saw (and ran no event loop itself).
        let child = try Self.summary(pid: 101)
        #expect(RunVerdict.judge(command: ["./run-app.sh"], pid: 100, end: .exited(0), summaries: [child], reportCount: 0)
                == RunVerdict(blind: false, sentences: []))
        // Crashed after a report: said, but the findings speak (not blind).
        let crashed = RunVerdict.judge(command: ["app"], pid: 102, end: .killed(SIGABRT), summaries: [], reportCount: 1)
        #expect(!crashed.blind && crashed.sentences.first?.contains("killed by SIGABRT") == true)
    }

    @Test("a GApplication that handed off to a running instance is explained, with how to watch a new one")
    func handOff() throws {
        let remote = try Self.summary(pid: 120) {
            $0["gapplication"] = ["id": "org.gnome.gedit", "remote": true]
            $0["process"] = ["pid": 120, "ppid": 1, "executable": "/usr/bin/gedit"]
        }
        #expect(remote.gapplication == SummaryGApplication(id: "org.gnome.gedit", remote: true))
        let verdict = RunVerdict.judge(command: ["gedit", "notes.txt"], pid: 120, end: .exited(0), summaries: [remote], reportCount: 0)
        #expect(verdict.blind)
        #expect(verdict.sentences == [
            "gedit handed its command line to an instance already running on this D-Bus session (org.gnome.gedit) and exited; "
                + "LoopHunter watched nothing. Watch a new instance: loophunter run -- dbus-run-session -- gedit notes.txt "
                + "(a private session bus), or the app's own new-instance flag if it has one.",
        ])
        #expect(RunVerdict.shellQuoted(["gedit", "a file's name.txt"]) == "gedit 'a file'\\''s name.txt'")
        // The primary instance is watched as any program.
        let primary = try Self.summary(pid: 121) { $0["gapplication"] = ["id": "org.gnome.gedit", "remote": false] }
        #expect(RunVerdict.judge(command: ["gedit"], pid: 121, end: .exited(0), summaries: [primary], reportCount: 0).sentences.isEmpty)
    }

    // MARK: a directory alone

    @Test("a directory with nothing says it saw nothing; reports without summaries are shown with a warning")
    func directory() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("lh-verdict-\(getpid())")
        defer { try? FileManager.default.removeItem(at: base) }
        let nothing = base.appendingPathComponent("nothing"), reportsOnly = base.appendingPathComponent("reports-only")
        try FileManager.default.createDirectory(at: nothing, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: reportsOnly, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Fixtures.reports.appendingPathComponent("report-4101-aaaa0001-000001-layout-storm.json"),
                                         to: reportsOnly.appendingPathComponent("report-4101-aaaa0001-000001-layout-storm.json"))
        let analyzer = Analyzer(symbolizer: nil)
        let seenNothing = analyzer.analyze(try ReportDirectoryReader(directory: nothing).read(), directoryLabel: "nothing")
        let text = TextFormatter().format(seenNothing)
        #expect(text.hasPrefix("LoopHunter: nothing seen in nothing (0 reports, 0 processes)\n  not seen: no process summary and no report"))
        #expect(!text.contains("no loops found"))
        #expect(JUnitFormatter().format(seenNothing).contains("<testcase classname=\"loophunter.not-seen\" name=\"LoopHunter saw the program\">"))
        #expect(!JUnitFormatter().format(seenNothing).contains("no layout loops"))
        #expect(OutputFormat.json.formatter().format(seenNothing).contains("\"unseen\""))
        #expect(OutputFormat.sarif.formatter().format(seenNothing).contains("not seen: no process summary and no report"))
        #expect(OutputFormat.markdown.formatter().format(seenNothing).contains("**Not seen:**"))
        #expect(OutputFormat.html.formatter().format(seenNothing).contains("<h2>Not seen</h2>"))

        let partial = analyzer.analyze(try ReportDirectoryReader(directory: reportsOnly).read(), directoryLabel: "reports-only")
        let partialText = TextFormatter().format(partial)
        #expect(partialText.hasPrefix("LoopHunter: 1 finding: 1 layout-storm in reports-only (1 report, 0 processes)\n"
                                      + "  not seen: no process summary was found"))
    }

    // MARK: findings of what was seen

    /// An alloc-storm report (from the fixture) with these frames (module, in-process symbol),
    /// `count` bytes and the object `type`.
    static func storm(_ frames: [(String, String?)], count: UInt64 = 67_152_560, type: String = "ListView",
                      name: String = "list", objectBytes: UInt64 = 142_662_320,
                      executable: String = "/usr/bin/font-viewer") throws -> Data {
        try Fixtures.edited(Fixtures.stormFile) { object in
            object["frames"] = frames.enumerated().map { index, frame in
                ["pc": "0x\(String(0x1000 + index * 16, radix: 16))", "module": frame.0, "build_id": NSNull(),
                 "offset": "0x\(String(0x1000 + index * 16, radix: 16))", "symbol": frame.1 ?? NSNull(),
                 "symbol_offset": frame.1 == nil ? NSNull() : 4] as [String: Any]
            }
            object["count"] = count
            object["process"] = ["pid": 4611, "ppid": 1, "executable": executable]
            var target = object["object"] as? [String: Any] ?? [:]
            target["type"] = type
            target["name"] = name
            target["path"] = "TkWindow 'main' > \(type) '\(name)'"
            object["object"] = target
            var alloc = object["alloc"] as? [String: Any] ?? [:]
            alloc["iteration_bytes"] = count
            alloc["object"] = ["bytes": objectBytes, "calls": 10, "layouts": 2]
            object["alloc"] = alloc
        }
    }

    static let startUp: [(String, String?)] = [
        ("/usr/bin/font-viewer", "main"), ("/lib/x86_64-linux-gnu/libc.so.6", nil),
        ("/lib/x86_64-linux-gnu/libc.so.6", "__libc_start_main"), ("/usr/bin/font-viewer", "_start"),
    ]

    @Test("findings whose only app frame is the program's entry are never merged; a shared app function still groups")
    func entryNeverGroups() throws {
        let image = try Self.storm([("/usr/lib/x86_64-linux-gnu/libgdk_pixbuf-2.0.so.0", "gdk_pixbuf_new"),
                                    ("/usr/lib/x86_64-linux-gnu/libgtk-4.so.1", "gtk_image_set_from_file")] + Self.startUp)
        let shader = try Self.storm([("/usr/lib/x86_64-linux-gnu/libepoxy.so.0", "epoxy_glCompileShader"),
                                     ("/usr/lib/x86_64-linux-gnu/libgtk-4.so.1", "gsk_gl_renderer_realize")] + Self.startUp)
        let byMain = try Fixtures.analysis(of: [image, shader])
        #expect(byMain.findings.count == 2, "\(byMain.findings.map(\.title))")

        // A stripped executable: main has no name, but is still the entry (called from libc's start-up).
        let stripped: [(String, String?)] = [("/usr/bin/font-viewer", nil), ("/lib/x86_64-linux-gnu/libc.so.6", nil),
                                             ("/lib/x86_64-linux-gnu/libc.so.6", "__libc_start_main"), ("/usr/bin/font-viewer", nil)]
        let a = try Self.storm([("/usr/lib/x86_64-linux-gnu/libgdk_pixbuf-2.0.so.0", "gdk_pixbuf_new")] + stripped)
        let b = try Self.storm([("/usr/lib/x86_64-linux-gnu/libepoxy.so.0", "epoxy_glCompileShader")] + stripped)
        #expect(try Fixtures.analysis(of: [a, b]).findings.count == 2)

        // The same function of the app's own on both stacks: one finding.
        let own: [(String, String?)] = [("/usr/bin/font-viewer", "load_preview")] + Self.startUp
        let c = try Self.storm([("/usr/lib/x86_64-linux-gnu/libgdk_pixbuf-2.0.so.0", "gdk_pixbuf_new")] + own)
        let d = try Self.storm([("/usr/lib/x86_64-linux-gnu/libgdk_pixbuf-2.0.so.0", "gdk_pixbuf_scale")] + own)
        let shared = try Fixtures.analysis(of: [c, d])
        #expect(shared.findings.count == 1 && shared.findings[0].appFrame?.primary?.function == "load_preview")
    }

    @Test("a finding's headline, object, stack and figures come from one report, the one with the highest count")
    func representative() throws {
        let own: [(String, String?)] = [("/usr/bin/font-viewer", "load_preview")] + Self.startUp
        let small = try Self.storm([("/usr/lib/x86_64-linux-gnu/libgdk_pixbuf-2.0.so.0", "gdk_pixbuf_new")] + own,
                                   count: 70_000_000, type: "GtkImage", name: "thumbnail", objectBytes: 195_000)
        let large = try Self.storm([("/usr/lib/x86_64-linux-gnu/libgdk_pixbuf-2.0.so.0", "gdk_pixbuf_scale")] + own,
                                   count: 90_000_000, type: "GtkImage", name: "preview", objectBytes: 95_000_000)
        let f = try #require(try Fixtures.analysis(of: [small, large]).findings.first)
        #expect(f.reportCount == 2 && f.count == 90_000_000)
        #expect(f.object.name == "preview" && f.objects.compactMap(\.name) == ["preview", "thumbnail"])
        #expect(f.title == "GtkImage 'preview' allocated 85.8 MiB in one iteration (limit 64 MiB)")
        #expect(f.alloc?.object?.bytes == 95_000_000 && f.alloc?.iterationBytes == 90_000_000)
        #expect(f.stack.first?.primary?.function == "gdk_pixbuf_scale", "the representative's own stack")

        // Its layout allocated less than the iteration's count: the title does not blame it for all of it.
        let f2 = try #require(try Fixtures.analysis(of: [small]).findings.first)
        #expect(f2.title == "66.8 MiB allocated in one iteration during the layout of GtkImage 'thumbnail' (limit 64 MiB)")
    }

    @Test("a script frame is your code unless it is the bindings' or the language's standard library")
    func yourScriptCode() {
        let c = FrameClassifier()
        #expect(c.origin(ofScriptFile: "/home/ada/app/main.py") == .app)
        #expect(c.origin(ofScriptFile: "Tests/Programs/causes/gjs_ping_pong.js") == .app, "relative, as GJS gives it")
        #expect(c.origin(ofScriptFile: "/usr/lib/python3/dist-packages/meld/filediff.py") == .app, "a Debian Python app's own code")
        #expect(c.origin(ofScriptFile: "/usr/lib/python3/dist-packages/gi/overrides/GLib.py") == .toolkit)
        #expect(c.origin(ofScriptFile: "/usr/local/lib/python3.11/site-packages/gi/overrides/Gtk.py") == .toolkit)
        #expect(c.origin(ofScriptFile: "resource:///org/gnome/gjs/modules/core/overrides/Gtk.js") == .toolkit)
        #expect(c.origin(ofScriptFile: "/usr/lib/python3.11/threading.py") == .system)
        #expect(c.origin(ofScriptFile: "/usr/lib/python3.11/site-packages/thing/view.py") == .app)
        #expect(c.origin(ofScriptFile: "<frozen importlib._bootstrap>") == .system)
        #expect(c.origin(ofScriptFile: "qrc:/wrap-text.qml") == .app, "a Qt Quick app's own QML")
        #expect(c.origin(ofScriptFile: "file:///home/ada/app/Main.qml") == .app)
        #expect(c.origin(ofScriptFile: "qrc:/qt-project.org/imports/QtQuick/Controls/Basic/Button.qml") == .toolkit)
        #expect(c.origin(ofScriptFile: "file:///usr/lib/x86_64-linux-gnu/qt5/qml/QtQuick/Controls.2/Button.qml") == .toolkit)
    }

    /// A frame named `function` at `index`, symbolized in process.
    static func frame(_ index: Int, _ module: String, _ function: String, _ origin: FrameOrigin) -> SymbolizedFrame {
        SymbolizedFrame(index: index, pc: "0x\(index)", module: module, offset: "0x\(index)",
                        symbols: [SourceSymbol(function: function, file: nil, line: nil)], source: .inProcess,
                        note: nil, origin: origin)
    }

    /// A QML handler's request: the native stack's only app code is the C++ that runs the event
    /// loop, further out than the QML engine; a C++ method the handler called is further in.
    @Test("the requester is the innermost of the app's native frame and its script frame")
    func requesterInnermost() {
        let script = [SymbolizedFrame(index: 0, pc: "", module: "qml", offset: nil,
                                      symbols: [SourceSymbol(function: "fitNoteWidth", file: "qrc:/notes.qml", line: 16)],
                                      source: .script, note: nil, origin: .app)]
        let qml = "/usr/lib/x86_64-linux-gnu/libQt6Qml.so.6", core = "/usr/lib/x86_64-linux-gnu/libQt6Core.so.6"
        let fromHandler = [Self.frame(0, "/usr/lib/x86_64-linux-gnu/libQt6QuickLayouts.so.6", "QQuickGridLayoutBase::invalidate", .toolkit),
                           Self.frame(1, qml, "QV4::QObjectWrapper::setProperty", .toolkit),
                           Self.frame(2, core, "QObject::event", .toolkit),
                           Self.frame(3, "/opt/notes/notes", "Notes::run", .app),
                           Self.frame(4, "/opt/notes/notes", "main", .app)]
        #expect(Analyzer.requester(native: fromHandler, script: script, language: "qml")?.primary?.function == "fitNoteWidth")
        let fromMethod = [Self.frame(0, core, "QCoreApplication::postEvent", .toolkit),
                          Self.frame(1, "/opt/notes/notes", "Notes::relayout", .app),
                          Self.frame(2, qml, "QV4::QObjectMethod::callInternal", .toolkit),
                          Self.frame(3, "/opt/notes/notes", "main", .app)]
        #expect(Analyzer.requester(native: fromMethod, script: script, language: "qml")?.primary?.function == "Notes::relayout")
        #expect(Analyzer.requester(native: fromHandler, script: [], language: nil)?.primary?.function == "Notes::run",
                "no script stack: the app's native frame")
        #expect(Analyzer.requester(native: Array(fromHandler.prefix(3)), script: script, language: "qml")?.primary?.function == "fitNoteWidth")
    }

    /// A Qt slot queued by the app's signal relays out: the request's only app code is the function
    /// that ran the event loop (`Viewer::run` calling `QApplication::exec`), which asked for nothing.
    @Test("app code further out than the innermost event loop is not the requester")
    func requesterInsideTheLoop() {
        let widgets = "/usr/lib/x86_64-linux-gnu/libQt6Widgets.so.6", core = "/usr/lib/x86_64-linux-gnu/libQt6Core.so.6"
        let viewer = "/opt/viewer/viewer"
        let fromSlot = [Self.frame(0, widgets, "QWidgetPrivate::setVisible(bool)", .toolkit),
                        Self.frame(1, core, "QObject::event(QEvent*)", .toolkit),
                        Self.frame(2, core, "QCoreApplicationPrivate::sendPostedEvents(QObject*, int, QThreadData*)", .toolkit),
                        Self.frame(3, core, "QEventLoop::exec(QFlags<QEventLoop::ProcessEventsFlag>)", .toolkit),
                        Self.frame(4, viewer, "Viewer::run()", .app),
                        Self.frame(5, viewer, "main", .app)]
        #expect(Analyzer.requester(native: fromSlot, script: [], language: nil) == nil)
        let fromCallback = [Self.frame(0, core, "QCoreApplication::postEvent(QObject*, QEvent*, int)", .toolkit),
                            Self.frame(1, viewer, "Viewer::refit()", .app)] + fromSlot.dropFirst().map {
            Self.frame($0.index + 1, $0.module ?? "", $0.primary?.function ?? "", $0.origin)
        }
        #expect(Analyzer.requester(native: fromCallback, script: [], language: nil)?.primary?.function == "Viewer::refit()")
        let nested = [Self.frame(0, core, "QCoreApplication::postEvent(QObject*, QEvent*, int)", .toolkit),
                      Self.frame(1, viewer, "Viewer::onAccepted()", .app),
                      Self.frame(2, core, "QEventLoop::exec(QFlags<QEventLoop::ProcessEventsFlag>)", .toolkit),
                      Self.frame(3, widgets, "QDialog::exec()", .toolkit),
                      Self.frame(4, viewer, "Viewer::askName()", .app)] + fromSlot.dropFirst().map {
            Self.frame($0.index + 4, $0.module ?? "", $0.primary?.function ?? "", $0.origin)
        }
        #expect(Analyzer.requester(native: nested, script: [], language: nil)?.primary?.function == "Viewer::onAccepted()",
                "a dialog's loop inside a callback: the code inside the innermost loop")
        #expect(FrameClassifier.isEventLoop(Self.frame(0, "/lib/libglib-2.0.so.0", "g_main_context_dispatch", .toolkit)))
        #expect(!FrameClassifier.isEventLoop(Self.frame(0, viewer, "Viewer::run()", .app)))
    }

    @Test("your code is the program's own modules, never a system library")
    func yourCode() {
        let c = FrameClassifier()
        let inkscape = "/usr/bin/inkscape"
        #expect(c.origin(ofModule: inkscape, executable: inkscape) == .app)
        #expect(c.origin(ofModule: "/usr/lib/x86_64-linux-gnu/inkscape/libinkscape_base.so", executable: inkscape) == .app)
        #expect(c.origin(ofModule: "/usr/lib/x86_64-linux-gnu/libxml2.so.2", executable: inkscape) == .system)
        #expect(c.origin(ofModule: "/lib/x86_64-linux-gnu/libxml2.so.2", executable: inkscape) == .system)
        #expect(c.origin(ofModule: "/usr/lib/x86_64-linux-gnu/libgtkmm-3.0.so.1", executable: inkscape) == .system)
        #expect(c.origin(ofModule: "/usr/lib/x86_64-linux-gnu/libgtk-3.so.0", executable: inkscape) == .toolkit)
        // Installed under a system directory as a whole: its directory is its own.
        let firefox = "/usr/lib/firefox-esr/firefox-esr"
        #expect(c.origin(ofModule: "/usr/lib/firefox-esr/libxul.so", executable: firefox) == .app)
        #expect(c.origin(ofModule: "/usr/lib/x86_64-linux-gnu/libnss3.so", executable: firefox) == .system)
        #expect(c.origin(ofModule: "/usr/lib/libreoffice/program/libmergedlo.so",
                         executable: "/usr/lib/libreoffice/program/soffice.bin") == .app)
        // A versioned name: gimp-2.10's /usr/lib/gimp/2.0/...
        #expect(c.origin(ofModule: "/usr/lib/gimp/2.0/modules/libcolor-selector-cmyk.so", executable: "/usr/bin/gimp-2.10") == .app)
        // A helper right in a system directory does not make the system's libraries its own.
        #expect(c.origin(ofModule: "/usr/lib/x86_64-linux-gnu/libglib-2.0.so.0", executable: "/usr/libexec/helper") == .toolkit)
        #expect(c.origin(ofModule: "/usr/lib/x86_64-linux-gnu/libxml2.so.2",
                         executable: "/usr/lib/x86_64-linux-gnu/helper") == .system)
        // Outside the system directories, everything is the program's (a build tree, /opt).
        #expect(c.origin(ofModule: "/opt/demo/lib/libclockface.so", executable: "/opt/demo/bin/clock-app") == .app)
        #expect(c.origin(ofModule: "/home/me/src/app/build/libapp.so", executable: nil) == .app)
        // An interpreter is the system's: the program is its script.
        #expect(c.origin(ofModule: "/usr/bin/python3.11", executable: "/usr/bin/python3.11") == .system)
        #expect(c.origin(ofModule: "/usr/lib/python3/dist-packages/gi/_gi.cpython-311-x86_64-linux-gnu.so",
                         executable: "/usr/bin/python3.11") == .system)
        #expect(c.origin(ofModule: "/usr/bin/gjs-console", executable: "/usr/bin/gjs-console") == .system)
        #expect(FrameClassifier.isInterpreter("/usr/bin/perl5.36.0") && !FrameClassifier.isInterpreter("/usr/bin/gtk4-demo"))
    }
}
