/// Turns a report collection into findings: symbolizes every frame (one batch), falls back to the
/// names the reports carry where debug information cannot be trusted, classifies frames, groups
/// reports by kind, hook, object type and app code, and attaches the summaries' counts. A finding's
/// headline, object, stack and figures all come from one report of its group, its representative
/// (the one with the highest count; the first of them).
public struct Analyzer: Sendable {
    public let symbolizer: (any Symbolizing)?
    public let classifier: FrameClassifier
    public let demangler: Demangler?
    /// App (or, without any, toolkit) frames that identify a group.
    public static let groupDepth = 3
    public static let maximumObjects = 20

    /// `symbolizer`: nil skips symbolization (`--no-symbolize`): names come from the reports only.
    public init(symbolizer: (any Symbolizing)? = LLVMSymbolizer(), classifier: FrameClassifier = FrameClassifier(),
                demangler: Demangler? = Demangler()) {
        self.symbolizer = symbolizer
        self.classifier = classifier
        self.demangler = demangler
    }

    public func analyze(_ collection: ReportCollection, directoryLabel: String? = nil) -> Analysis {
        let lookups = symbolizer?.symbolize(Self.codeAddresses(collection)) ?? [:]
        let inProcessNames = demangledInProcessNames(collection, lookups: lookups)
        var notes = Set<String>()

        // Group every report. Reports of one loop share their stack (module, offset, symbol:
        // return addresses differ per process), so the group key is computed once per stack.
        var groups: [String: [LocatedReport]] = [:]
        var stacks: [StackKey: [SymbolizedFrame]] = [:] // per distinct stack: its frames, symbolized
        var order: [String] = []
        var keys: [StackKey: String] = [:]
        for located in collection.reports {
            let report = located.report
            let stackKey = Self.stackKey(of: report)
            let key: String
            if let known = keys[stackKey] {
                key = known
            } else {
                let frames = symbolizedFrames(report, lookups: lookups, inProcessNames: inProcessNames)
                let detail = Self.groupDetail(of: report) { callback in
                    Self.callbackDetail(symbolizedCallback(callback, executable: report.process.executable,
                                                           lookups: lookups, inProcessNames: inProcessNames))
                }
                key = Self.groupKey(kind: report.kind, hook: stackKey.hook, type: report.object.type, detail: detail,
                                    frames: frames, depth: report.kind.grouping.depth)
                keys[stackKey] = key
                notes.formUnion(frames.compactMap(\.note))
                stacks[stackKey] = frames
            }
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(located)
        }

        // Repeats the preloads throttled, per preload fingerprint.
        var suppressedByFingerprint: [String: UInt64] = [:]
        for summary in collection.summaries {
            for entry in summary.summary.fingerprints { suppressedByFingerprint[entry.fingerprint, default: 0] += entry.suppressed }
        }

        let label = directoryLabel ?? collection.directory
        let findings = order.map { key in
            finding(id: key, members: groups[key] ?? [], stacks: stacks,
                    suppressedByFingerprint: suppressedByFingerprint, directory: label,
                    lookups: lookups, inProcessNames: inProcessNames)
        }.sorted {
            ($0.severity, -$0.reportCount, $0.firstSeen, $0.id) < ($1.severity, -$1.reportCount, $1.firstSeen, $1.id)
        }
        return Analysis(
            directory: label,
            findings: findings,
            processes: collection.summaries.map { located in
                ProcessOverview(located.summary) { frame in
                    self.symbolizedCallback(frame, executable: located.summary.process.executable, lookups: lookups,
                                            inProcessNames: inProcessNames).displayName
                }
            }.sorted { $0.pid < $1.pid },
            problems: collection.problems.map(\.description),
            reportCount: collection.reports.count,
            symbolizer: symbolizer?.description ?? "not symbolized (names only where the process proved them)",
            symbolizationNotes: notes.sorted(),
            unseen: Self.unseen(collection))
    }

    /// What a report directory alone says LoopHunter did not see: nothing at all (no process
    /// summary, no report), or the processes behind its reports (no summary of any).
    static func unseen(_ collection: ReportCollection) -> [String]? {
        guard collection.summaries.isEmpty else { return nil }
        if collection.reports.isEmpty {
            return ["no process summary and no report: LoopHunter saw nothing here (a process under LoopHunter leaves its "
                    + "summary when it ends; is this the report directory of a run that has ended?)"]
        }
        return ["no process summary was found: the processes that wrote these reports left none (killed, crashed, still "
                + "running, or they left through _exit), so what else they did is not known"]
    }

    /// The stable group fingerprint: kind, hook (``groupHook(of:)``), object type, detail
    /// (``groupDetail(of:callback:)``), and the frames that tell where (``groupFrames(_:)``): the
    /// top `depth` of them, by function name, else module and offset. `depth`: the kind's
    /// (``ReportGrouping/depth``).
    public static func groupKey(kind: ReportKind, hook: String, type: String, detail: String? = nil,
                                frames: [SymbolizedFrame], depth: Int = groupDepth) -> String {
        var parts = [kind.rawValue, hook, type]
        if let detail { parts.append(detail) }
        for frame in groupFrames(frames).prefix(depth) {
            parts.append("\(frame.moduleName ?? "?"):\(frame.primary?.function ?? frame.offset ?? frame.pc)")
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in parts.joined(separator: "\u{1}").utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The frames a group key is made of, innermost first: the app's own (``FrameOrigin/app``),
    /// when one of them is more than the program's entry (``FrameClassifier/isProgramEntry(_:in:at:)``:
    /// `main`, `_start`); else the toolkit's; else the system's other than the C library's start-up;
    /// else (a stack of nothing but the entry) the app's. Two reports whose only app frame is `main`
    /// share nothing but the program: they are told apart by where in the toolkit (or the system)
    /// they were, never merged by their `main`.
    public static func groupFrames(_ frames: [SymbolizedFrame]) -> [SymbolizedFrame] {
        let entries = Set(frames.indices.filter { FrameClassifier.isProgramEntry(frames[$0], in: frames, at: $0) })
        let app = frames.indices.filter { frames[$0].origin == .app }
        if app.contains(where: { !entries.contains($0) }) { return app.map { frames[$0] } }
        let toolkit = frames.filter { $0.origin == .toolkit }
        if !toolkit.isEmpty { return toolkit }
        let system = frames.indices.filter { frames[$0].origin == .system && !entries.contains($0) }.map { frames[$0] }
        return system.isEmpty ? app.map { frames[$0] } : system
    }

    /// The frame to open in an editor: the first app frame that is more than the program's entry
    /// (with a source location, if one has), else the first app frame.
    public static func appFrame(of stack: [SymbolizedFrame]) -> SymbolizedFrame? {
        ownAppFrame(of: stack, preferringSource: true)
            ?? stack.first { $0.origin == .app && $0.primary?.file != nil } ?? stack.first { $0.origin == .app }
    }

    /// What makes two reports the same for grouping before symbolization (``StackKey``).
    static func stackKey(of report: Report) -> StackKey {
        StackKey(kind: report.kind, hook: groupHook(of: report), type: report.object.type,
                 detail: groupDetail(of: report, callback: rawCallbackDetail), executable: report.process.executable,
                 frames: report.frames)
    }

    /// The hook a report is grouped by: its own, but the malloc family's entry points as one
    /// (`alloc`): an allocation storm crosses its limit in whichever of malloc, calloc or realloc
    /// comes next, and a heap growth is noticed by the event loop, not by an allocation. A kind
    /// whose reports are grouped by a hook of its own (``ReportGrouping/hook``: a stall's, a slow
    /// window's) has that one.
    public static func groupHook(of report: Report) -> String {
        report.kind.grouping.hook ?? (report.hook.family == "alloc" ? report.hook.family : report.hook.name)
    }

    /// A timer's callback in a group key: its function name once symbolized, else module and offset.
    static func callbackDetail(_ callback: SymbolizedFrame) -> String {
        "callback \(callback.moduleName ?? "?"):\(callback.primary?.function ?? callback.offset ?? callback.pc)"
    }

    /// A timer's callback before symbolization, for the cache of group keys.
    static func rawCallbackDetail(_ callback: Frame) -> String {
        "callback \(callback.module ?? "?"):\(callback.offset ?? callback.pc):\(callback.symbol ?? "")"
    }

    /// Every address to symbolize: the frames of every stack (`frames`, `created_frames`) as return
    /// addresses, and every callback (`timer.callback`, `window.slowest[].callback`, in reports and
    /// summaries) as an entry address.
    static func codeAddresses(_ collection: ReportCollection) -> Set<CodeAddress> {
        var addresses = Set<CodeAddress>()
        for located in collection.reports {
            let report = located.report
            addresses.formUnion(report.frames.compactMap { CodeAddress($0) })
            for stack in otherStacks(of: report) { addresses.formUnion(stack.compactMap { CodeAddress($0) }) }
            addresses.formUnion(callbacks(of: report).compactMap(CodeAddress.init(callback:)))
        }
        for located in collection.summaries {
            for window in located.summary.windows ?? [] {
                addresses.formUnion(window.slowest.compactMap(\.callback).compactMap(CodeAddress.init(callback:)))
            }
        }
        return addresses
    }

    /// A report's callback frame objects (entry addresses).
    static func callbacks(of report: Report) -> [Frame] {
        var frames = (report.window?.slowest ?? []).compactMap(\.callback)
        if let callback = report.timer?.callback { frames.append(callback) }
        frames += (report.cause?.addedBy ?? []).compactMap(\.callback)
        return frames
    }

    /// A report's stacks besides `frames`, whose frames are return addresses: the timer's created
    /// stack, the cause's request stack and the stacks where its callbacks were added.
    static func otherStacks(of report: Report) -> [[Frame]] {
        var stacks: [[Frame]] = []
        if let created = report.createdFrames { stacks.append(created) }
        if let cause = report.cause {
            stacks.append(cause.requestStack)
            stacks += cause.addedBy.map(\.stack)
        }
        return stacks
    }

    /// What tells two reports of one kind, hook and object type apart besides their code: the
    /// first of the kind's ``ReportGrouping/details`` that the report has. A toolkit warning's
    /// format (the text varies, the format does not); for a heap growth, whose object is always
    /// the process heap and whose stack is only where the event loop noticed, the type and hook
    /// of the top allocator (whose layouts allocated most); a timer's callback, as `callback`
    /// writes it. Nil when the report has none of them.
    public static func groupDetail(of report: Report, callback: (Frame) -> String) -> String? {
        for detail in report.kind.grouping.details {
            switch detail {
            case .warningFormat:
                if let warning = report.warning { return warning.format ?? warning.message }
            case .topAllocator:
                if let top = report.alloc?.topAllocators.first { return "allocator \(top.type ?? "?") \(top.hook ?? "?")" }
            case .timerCallback:
                if let frame = report.timer?.callback { return callback(frame) }
            }
        }
        return nil
    }

    /// The report's frames, named; LoopHunter's own frames (the vfunc wrappers GTK's stacks pass
    /// through) are left out: they are not the user's code nor the toolkit's. Indices stay those
    /// of the report.
    private func symbolizedFrames(_ report: Report, lookups: [CodeAddress: SymbolLookup],
                                  inProcessNames: [String: String]) -> [SymbolizedFrame] {
        symbolizedStack(report.frames, executable: report.process.executable, lookups: lookups,
                        inProcessNames: inProcessNames)
    }

    private func symbolizedStack(_ frames: [Frame], executable: String?, lookups: [CodeAddress: SymbolLookup],
                                 inProcessNames: [String: String]) -> [SymbolizedFrame] {
        frames.enumerated().compactMap { index, frame in
            let named = symbolized(frame, index: index, address: CodeAddress(frame), executable: executable,
                                   lookups: lookups, inProcessNames: inProcessNames)
            return named.origin == .loophunter ? nil : named
        }
    }

    /// A callback frame object, named at its ENTRY address (``CodeAddress/init(callback:)``: the
    /// offset exactly, not `offset - 1` as for the return addresses of a stack).
    func symbolizedCallback(_ frame: Frame, executable: String?, lookups: [CodeAddress: SymbolLookup],
                            inProcessNames: [String: String]) -> SymbolizedFrame {
        symbolized(frame, index: 0, address: CodeAddress(callback: frame), executable: executable, lookups: lookups,
                   inProcessNames: inProcessNames)
    }

    private func symbolized(_ frame: Frame, index: Int, address: CodeAddress?, executable: String?,
                            lookups: [CodeAddress: SymbolLookup], inProcessNames: [String: String]) -> SymbolizedFrame {
        let lookup = address.flatMap { lookups[$0] } ?? .unknown
        var symbols = lookup.symbols
        var source = lookup.source
        if symbols.isEmpty, let name = frame.symbol {
            symbols = [SourceSymbol(function: inProcessNames[name] ?? name)]
            source = .inProcess
        }
        return SymbolizedFrame(index: index, pc: frame.pc, module: frame.module, offset: frame.offset,
                               symbols: symbols, source: source, note: lookup.note,
                               origin: classifier.origin(ofModule: frame.module, executable: executable))
    }

    private func demangledInProcessNames(_ collection: ReportCollection, lookups: [CodeAddress: SymbolLookup]) -> [String: String] {
        guard let demangler else { return [:] }
        // Every frame of every report passes here: the cheap tests on the name come first, and
        // no arrays of all frames are built.
        var names = Set<String>()
        func consider(_ frame: Frame, at address: @autoclosure () -> CodeAddress?) {
            guard let name = frame.symbol, Demangler.isSwift(name) || Demangler.isCxx(name), !names.contains(name),
                  address().flatMap({ lookups[$0] })?.symbols.isEmpty ?? true else { return }
            names.insert(name)
        }
        for located in collection.reports {
            for frame in located.report.frames { consider(frame, at: CodeAddress(frame)) }
            for stack in Self.otherStacks(of: located.report) {
                for frame in stack { consider(frame, at: CodeAddress(frame)) }
            }
            for frame in Self.callbacks(of: located.report) { consider(frame, at: CodeAddress(callback: frame)) }
            // The entry points a cause names are hook names: a C++ toolkit's are mangled
            // (Qt's QCoreApplication::postEvent, QQuickItem::polish).
            if let cause = located.report.cause {
                for name in [cause.entry] + cause.addedBy.map(\.addedWith) {
                    if let name, Demangler.isCxx(name) { names.insert(name) }
                }
            }
        }
        return names.isEmpty ? [:] : demangler.demangle(names)
    }

    private func finding(id: String, members group: [LocatedReport], stacks: [StackKey: [SymbolizedFrame]],
                         suppressedByFingerprint: [String: UInt64], directory: String,
                         lookups: [CodeAddress: SymbolLookup], inProcessNames: [String: String]) -> Finding {
        // The representative: the report with the highest count (the first of them). Its object
        // heads the finding, its stack is shown, its figures are given: nothing is mixed from two
        // reports.
        var representativeIndex = 0
        for index in group.indices where group[index].report.count > group[representativeIndex].report.count {
            representativeIndex = index
        }
        let representative = group[representativeIndex].report
        let stack = stacks[Self.stackKey(of: representative)] ?? []
        // Read in place: a group can hold thousands of reports, each a large value to copy.
        let reports = group.lazy.map(\.report)
        var objects: [ObjectRef] = []
        var members: [LoopMember] = []
        // The representative first, then the others in order.
        for index in [representativeIndex] + group.indices.filter({ $0 != representativeIndex }) {
            let report = group[index].report
            let object = ObjectRef(type: report.object.type, name: report.object.name, path: report.object.path)
            if !objects.contains(object), objects.count < Self.maximumObjects { objects.append(object) }
            for member in report.loopMembers where !members.contains(where: { $0.type == member.type && $0.name == member.name }) {
                members.append(member)
            }
        }
        // In order of first appearance; the sets keep a group of thousands of processes linear.
        var processes: [ProcessRef] = [], seenProcesses = Set<ProcessRef>()
        var threads: [String] = [], seenThreads = Set<String>()
        for located in group {
            let report = located.report
            let process = ProcessRef(pid: report.process.pid, executable: report.process.executable)
            if seenProcesses.insert(process).inserted { processes.append(process) }
            if seenThreads.insert(report.thread.name).inserted { threads.append(report.thread.name) }
        }
        let suppressed = Set(reports.map(\.fingerprint)).reduce(UInt64(0)) { $0 + (suppressedByFingerprint[$1] ?? 0) }
        let object = objects[0]
        let executable = representative.process.executable
        let callback = { (frame: Frame) in
            self.symbolizedCallback(frame, executable: executable, lookups: lookups, inProcessNames: inProcessNames)
        }
        let timerCallback = representative.timer?.callback.map(callback)
        let cause = representative.cause.map { cause in
            findingCause(cause, executable: executable, callback: callback, lookups: lookups, inProcessNames: inProcessNames)
        }
        // `where`: the code that re-requested layout; for a request made where no app code is on
        // the stack (an interpreter's, the toolkit's), the app callback that carried it, else the
        // app code that scheduled that callback (a toolkit slot queued by the app's signal).
        let appFrame = cause?.requester ?? cause?.addedBy.first?.callback.flatMap { $0.origin == .app ? $0 : nil }
            ?? cause?.addedBy.first?.adder ?? Self.appFrame(of: stack)
        return Finding(
            id: id,
            kind: representative.kind,
            severity: representative.kind.severity,
            hook: representative.hook.name,
            object: object,
            objects: objects,
            title: representative.kind.title(object: object, report: representative, appCode: appFrame?.displayName,
                                             callback: timerCallback?.displayName),
            reportCount: reports.count,
            suppressed: suppressed,
            firstSeen: reports.map(\.time).min() ?? representative.time,
            lastSeen: reports.map(\.time).max() ?? representative.time,
            processes: processes,
            threads: threads,
            count: representative.count,
            threshold: representative.threshold,
            countUnit: representative.countUnit,
            members: members,
            stack: stack,
            appFrame: appFrame,
            history: representative.history,
            historyUnit: representative.historyUnit ?? "iteration",
            alloc: representative.alloc,
            detail: detail(of: representative, timerCallback: timerCallback, callback: callback,
                           lookups: lookups, inProcessNames: inProcessNames),
            cause: cause,
            // Shown as the directory the user named plus the file name, not as the resolved path.
            reportPaths: group.map { directory + "/" + Self.fileName($0.path) })
    }

    /// The section of the representative report's kind (a report has one; the first, in the order
    /// the schema added them, should it have more), with the code it names symbolized:
    /// `timerCallback` is the timer's, `callback` names the callbacks of a window's steps.
    private func detail(of representative: Report, timerCallback: SymbolizedFrame?, callback: (Frame) -> SymbolizedFrame,
                        lookups: [CodeAddress: SymbolLookup], inProcessNames: [String: String]) -> FindingDetail {
        if let streak = representative.streak { return .streak(streak) }
        if let warning = representative.warning { return .warning(warning) }
        if let stall = representative.stall { return .stall(stall) }
        if let window = representative.window {
            return .window(window, slowestSteps: window.slowest.map { step in
                SymbolizedStep(signal: step.signal, objectType: step.objectType, callback: step.callback.map(callback),
                               durationUs: step.durationUs, count: step.count)
            })
        }
        if let timer = representative.timer {
            return .timer(timer, callback: timerCallback, createdStack: representative.createdFrames.map {
                symbolizedStack($0, executable: representative.process.executable, lookups: lookups,
                                inProcessNames: inProcessNames)
            })
        }
        return .none
    }

    /// A report's cause, symbolized. The requester is the first (innermost) frame of the app's own
    /// code in the request's stack, with or without a source location: the caller of the toolkit's
    /// setter is the code to change, not a deeper function that has debug information (the
    /// program's entry does not count, nor app code further out than the innermost event loop: a
    /// request whose only app frames are `main` or the function that ran the loop was made by the
    /// toolkit or an interpreter on the app's behalf, and has none).
    private func findingCause(_ cause: ReportCause, executable: String, callback: (Frame) -> SymbolizedFrame,
                              lookups: [CodeAddress: SymbolLookup], inProcessNames: [String: String]) -> FindingCause {
        func named(_ frames: [Frame]) -> [SymbolizedFrame] {
            symbolizedStack(frames, executable: executable, lookups: lookups, inProcessNames: inProcessNames)
        }
        let requestStack = named(cause.requestStack)
        let requestScript = Self.scriptFrames(cause.requestScript, classifier: classifier)
        return FindingCause(
            kind: cause.kind, entry: cause.entry.map { inProcessNames[$0] ?? $0 }, widget: cause.widget, requestStack: requestStack,
            requestScript: requestScript, scriptLanguage: requestScript.isEmpty ? nil : cause.requestScript?.languageName,
            requester: Self.requester(native: requestStack, script: requestScript, language: cause.requestScript?.language),
            addedBy: cause.addedBy.map { link in
                let stack = named(link.stack)
                return FindingCauseLink(kind: link.kind, addedWith: link.addedWith.map { inProcessNames[$0] ?? $0 },
                                        callback: link.callback.map(callback),
                                        stack: stack, adder: Self.ownAppFrame(of: stack, preferringSource: false))
            },
            chainTruncated: cause.chainTruncated ?? false, beganIn: cause.beganIn)
    }

    /// The code that made a request: the innermost of the app's own native frame and its script
    /// frame. A script function runs inside its engine: when the app's innermost native frame is
    /// further out than the engine's first frame (the C++ that started the event loop, under the
    /// QML engine running a handler), the script function is the one that asked; when it is further
    /// in (a C++ method the script called), that method is.
    package static func requester(native: [SymbolizedFrame], script: [SymbolizedFrame], language: String?) -> SymbolizedFrame? {
        let scriptApp = script.first { $0.origin == .app }
        let insideLoop = native.firstIndex(where: FrameClassifier.isEventLoop).map { Array(native[..<$0]) } ?? native
        guard let nativeApp = ownAppFrame(of: insideLoop, preferringSource: false) else { return scriptApp }
        guard let scriptApp, let language,
              let engine = native.firstIndex(where: { FrameClassifier.isScriptEngine($0.module, language: language) }),
              let own = native.firstIndex(where: { $0.index == nativeApp.index }), engine < own else { return nativeApp }
        return scriptApp
    }

    /// An interpreted stack as frames named by the interpreter, their module the language
    /// (`python`, `javascript`, `qml`), their origin by file (``FrameClassifier/origin(ofScriptFile:)``).
    static func scriptFrames(_ script: ScriptStack?, classifier: FrameClassifier) -> [SymbolizedFrame] {
        guard let script else { return [] }
        return script.frames.enumerated().map { index, frame in
            SymbolizedFrame(index: index, pc: "", module: script.language, offset: nil,
                            symbols: [SourceSymbol(function: frame.function, file: frame.file, line: frame.line)],
                            source: .script, note: nil, origin: classifier.origin(ofScriptFile: frame.file))
        }
    }

    /// The first frame of the app's own code that is not the program's entry (`preferringSource`:
    /// the first with a source location, if one has); nil when there is none.
    static func ownAppFrame(of stack: [SymbolizedFrame], preferringSource: Bool) -> SymbolizedFrame? {
        let own = stack.indices.filter { stack[$0].origin == .app && !FrameClassifier.isProgramEntry(stack[$0], in: stack, at: $0) }
            .map { stack[$0] }
        return (preferringSource ? own.first { $0.primary?.file != nil } : nil) ?? own.first
    }

    /// The last component of `path` (what `path.split(separator: "/").last` gives), found from
    /// the end: it runs for every report.
    static func fileName(_ path: String) -> String {
        let utf8 = path.utf8
        if let slash = utf8.lastIndex(of: UInt8(ascii: "/")), utf8.index(after: slash) != utf8.endIndex {
            return String(path[utf8.index(after: slash)...])
        }
        return path.split(separator: "/").last.map(String.init) ?? path
    }
}
