/// Turns a report collection into findings: symbolizes every frame (one batch), falls back to the
/// names the reports carry where debug information cannot be trusted, classifies frames, groups
/// reports by kind, hook, object type and app code, and attaches the summaries' counts.
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
        var stacks: [String: [SymbolizedFrame]] = [:] // the first report's, per group
        var order: [String] = []
        var keys: [StackKey: String] = [:]
        for located in collection.reports {
            let report = located.report
            let hook = Self.groupHook(of: report)
            let stackKey = StackKey(kind: report.kind, hook: hook, type: report.object.type,
                                    detail: Self.groupDetail(of: report, callback: Self.rawCallbackDetail), frames: report.frames)
            let key: String
            if let known = keys[stackKey] {
                key = known
            } else {
                let frames = symbolizedFrames(report, lookups: lookups, inProcessNames: inProcessNames)
                let detail = Self.groupDetail(of: report) { callback in
                    Self.callbackDetail(symbolizedCallback(callback, lookups: lookups, inProcessNames: inProcessNames))
                }
                key = Self.groupKey(kind: report.kind, hook: hook, type: report.object.type, detail: detail, frames: frames,
                                    depth: report.kind.grouping.depth)
                keys[stackKey] = key
                notes.formUnion(frames.compactMap(\.note))
                if stacks[key] == nil { stacks[key] = frames }
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
            finding(id: key, members: groups[key] ?? [], stack: stacks[key] ?? [],
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
                    self.symbolizedCallback(frame, lookups: lookups, inProcessNames: inProcessNames).displayName
                }
            }.sorted { $0.pid < $1.pid },
            problems: collection.problems.map(\.description),
            reportCount: collection.reports.count,
            symbolizer: symbolizer?.description ?? "not symbolized (names only where the process proved them)",
            symbolizationNotes: notes.sorted())
    }

    /// The stable group fingerprint: kind, hook (``groupHook(of:)``), object type, detail
    /// (``groupDetail(of:callback:)``), and the top `depth` app frames (by function name, else
    /// module and offset), or the top toolkit frames when no app frame is known. `depth`: the
    /// kind's (``ReportGrouping/depth``).
    public static func groupKey(kind: ReportKind, hook: String, type: String, detail: String? = nil,
                                frames: [SymbolizedFrame], depth: Int = groupDepth) -> String {
        var parts = [kind.rawValue, hook, type]
        if let detail { parts.append(detail) }
        let app = frames.filter { $0.origin == .app }
        let chosen = app.isEmpty ? frames.filter { $0.origin == .toolkit } : app
        for frame in chosen.prefix(depth) {
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
            addresses.formUnion((report.createdFrames ?? []).compactMap { CodeAddress($0) })
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
        return frames
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
        symbolizedStack(report.frames, lookups: lookups, inProcessNames: inProcessNames)
    }

    private func symbolizedStack(_ frames: [Frame], lookups: [CodeAddress: SymbolLookup],
                                 inProcessNames: [String: String]) -> [SymbolizedFrame] {
        frames.enumerated().compactMap { index, frame in
            let named = symbolized(frame, index: index, address: CodeAddress(frame), lookups: lookups,
                                   inProcessNames: inProcessNames)
            return named.origin == .loophunter ? nil : named
        }
    }

    /// A callback frame object, named at its ENTRY address (``CodeAddress/init(callback:)``: the
    /// offset exactly, not `offset - 1` as for the return addresses of a stack).
    func symbolizedCallback(_ frame: Frame, lookups: [CodeAddress: SymbolLookup],
                            inProcessNames: [String: String]) -> SymbolizedFrame {
        symbolized(frame, index: 0, address: CodeAddress(callback: frame), lookups: lookups, inProcessNames: inProcessNames)
    }

    private func symbolized(_ frame: Frame, index: Int, address: CodeAddress?, lookups: [CodeAddress: SymbolLookup],
                            inProcessNames: [String: String]) -> SymbolizedFrame {
        let lookup = address.flatMap { lookups[$0] } ?? .unknown
        var symbols = lookup.symbols
        var source = lookup.source
        if symbols.isEmpty, let name = frame.symbol {
            symbols = [SourceSymbol(function: inProcessNames[name] ?? name)]
            source = .inProcess
        }
        return SymbolizedFrame(index: index, pc: frame.pc, module: frame.module, offset: frame.offset,
                               symbols: symbols, source: source, note: lookup.note,
                               origin: classifier.origin(ofModule: frame.module))
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
            for frame in located.report.createdFrames ?? [] { consider(frame, at: CodeAddress(frame)) }
            for frame in Self.callbacks(of: located.report) { consider(frame, at: CodeAddress(callback: frame)) }
        }
        return names.isEmpty ? [:] : demangler.demangle(names)
    }

    private func finding(id: String, members group: [LocatedReport], stack: [SymbolizedFrame],
                         suppressedByFingerprint: [String: UInt64], directory: String,
                         lookups: [CodeAddress: SymbolLookup], inProcessNames: [String: String]) -> Finding {
        let representative = group[0].report
        // Read in place: a group can hold thousands of reports, each a large value to copy.
        let reports = group.lazy.map(\.report)
        let peak = group.max { $0.report.count < $1.report.count }?.report ?? representative
        var objects: [ObjectRef] = []
        var members: [LoopMember] = []
        for located in group {
            let report = located.report
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
        let callback = { (frame: Frame) in self.symbolizedCallback(frame, lookups: lookups, inProcessNames: inProcessNames) }
        let timerCallback = representative.timer?.callback.map(callback)
        let appFrame = stack.first { $0.origin == .app && $0.primary?.file != nil } ?? stack.first { $0.origin == .app }
        return Finding(
            id: id,
            kind: representative.kind,
            severity: representative.kind.severity,
            hook: representative.hook.name,
            object: object,
            objects: objects,
            title: representative.kind.title(object: object, report: peak, appCode: appFrame?.displayName,
                                             callback: timerCallback?.displayName),
            reportCount: reports.count,
            suppressed: suppressed,
            firstSeen: reports.map(\.time).min() ?? representative.time,
            lastSeen: reports.map(\.time).max() ?? representative.time,
            processes: processes,
            threads: threads,
            count: peak.count,
            threshold: peak.threshold,
            countUnit: peak.countUnit,
            members: members,
            stack: stack,
            appFrame: appFrame,
            history: representative.history,
            historyUnit: representative.historyUnit ?? "iteration",
            alloc: representative.alloc,
            detail: detail(of: representative, timerCallback: timerCallback, callback: callback,
                           lookups: lookups, inProcessNames: inProcessNames),
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
                symbolizedStack($0, lookups: lookups, inProcessNames: inProcessNames)
            })
        }
        return .none
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
