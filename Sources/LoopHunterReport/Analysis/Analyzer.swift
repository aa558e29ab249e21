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
        let lookups = symbolizer?.symbolize(Set(collection.reports.flatMap { $0.report.frames.compactMap(CodeAddress.init) })) ?? [:]
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
            let hook = Self.groupHook(of: report), detail = Self.groupDetail(of: report)
            let stackKey = StackKey(kind: report.kind, hook: hook, type: report.object.type,
                                    detail: detail, frames: report.frames)
            let key: String
            if let known = keys[stackKey] {
                key = known
            } else {
                let frames = symbolizedFrames(report, lookups: lookups, inProcessNames: inProcessNames)
                key = Self.groupKey(kind: report.kind, hook: hook, type: report.object.type,
                                    detail: detail, frames: frames)
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
                    suppressedByFingerprint: suppressedByFingerprint, directory: label)
        }.sorted {
            ($0.severity, -$0.reportCount, $0.firstSeen, $0.id) < ($1.severity, -$1.reportCount, $1.firstSeen, $1.id)
        }
        return Analysis(
            directory: label,
            findings: findings,
            processes: collection.summaries.map { ProcessOverview($0.summary) }.sorted { $0.pid < $1.pid },
            problems: collection.problems.map(\.description),
            reportCount: collection.reports.count,
            symbolizer: symbolizer?.description ?? "not symbolized (names only where the process proved them)",
            symbolizationNotes: notes.sorted())
    }

    /// The stable group fingerprint: kind, hook (``groupHook(of:)``), object type, detail
    /// (``groupDetail(of:)``), and the top app frames (by function name, else module and offset),
    /// or the top toolkit frames when no app frame is known.
    public static func groupKey(kind: String, hook: String, type: String, detail: String? = nil,
                                frames: [SymbolizedFrame]) -> String {
        var parts = [kind, hook, type]
        if let detail { parts.append(detail) }
        let app = frames.filter { $0.origin == .app }
        let chosen = app.isEmpty ? frames.filter { $0.origin == .toolkit } : app
        for frame in chosen.prefix(groupDepth) {
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
    /// comes next, and a heap growth is noticed by the event loop, not by an allocation.
    public static func groupHook(of report: Report) -> String {
        report.hook.family == "alloc" ? report.hook.family : report.hook.name
    }

    /// What tells two reports of one kind, hook and object type apart besides their code: a
    /// toolkit warning's format (the text varies, the format does not); for a heap growth, whose
    /// object is always the process heap and whose stack is only where the event loop noticed,
    /// the type and hook of the top allocator (whose layouts allocated most). Nil otherwise.
    public static func groupDetail(of report: Report) -> String? {
        if let warning = report.warning { return warning.format ?? warning.message }
        if report.kind == "heap-growth", let top = report.alloc?.topAllocators.first {
            return "allocator \(top.type ?? "?") \(top.hook ?? "?")"
        }
        return nil
    }

    /// The report's frames, named; LoopHunter's own frames (the vfunc wrappers GTK's stacks pass
    /// through) are left out: they are not the user's code nor the toolkit's. Indices stay those
    /// of the report.
    private func symbolizedFrames(_ report: Report, lookups: [CodeAddress: SymbolLookup],
                                  inProcessNames: [String: String]) -> [SymbolizedFrame] {
        report.frames.enumerated().compactMap { index, frame in
            let named = symbolized(frame, index: index, lookups: lookups, inProcessNames: inProcessNames)
            return named.origin == .loophunter ? nil : named
        }
    }

    private func symbolized(_ frame: Frame, index: Int, lookups: [CodeAddress: SymbolLookup],
                            inProcessNames: [String: String]) -> SymbolizedFrame {
        let lookup = CodeAddress(frame).flatMap { lookups[$0] } ?? .unknown
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
        let names = Set(collection.reports.flatMap { $0.report.frames }.compactMap { frame -> String? in
            guard let name = frame.symbol, CodeAddress(frame).flatMap({ lookups[$0] })?.symbols.isEmpty ?? true else { return nil }
            return Demangler.isSwift(name) || Demangler.isCxx(name) ? name : nil
        })
        return names.isEmpty ? [:] : demangler.demangle(names)
    }

    private func finding(id: String, members group: [LocatedReport], stack: [SymbolizedFrame],
                         suppressedByFingerprint: [String: UInt64], directory: String) -> Finding {
        let representative = group[0].report
        let reports = group.map(\.report)
        let peak = reports.max { $0.count < $1.count } ?? representative
        var objects: [ObjectRef] = []
        var members: [LoopMember] = []
        for report in reports {
            let object = ObjectRef(type: report.object.type, name: report.object.name, path: report.object.path)
            if !objects.contains(object), objects.count < Self.maximumObjects { objects.append(object) }
            for member in report.loopMembers where !members.contains(where: { $0.type == member.type && $0.name == member.name }) {
                members.append(member)
            }
        }
        var processes: [ProcessRef] = []
        var threads: [String] = []
        for report in reports {
            let process = ProcessRef(pid: report.process.pid, executable: report.process.executable)
            if !processes.contains(process) { processes.append(process) }
            if !threads.contains(report.thread.name) { threads.append(report.thread.name) }
        }
        let suppressed = Set(reports.map(\.fingerprint)).reduce(UInt64(0)) { $0 + (suppressedByFingerprint[$1] ?? 0) }
        let object = objects[0]
        return Finding(
            id: id,
            kind: representative.kind,
            severity: Severity.of(kind: representative.kind),
            hook: representative.hook.name,
            object: object,
            objects: objects,
            title: Self.title(kind: representative.kind, object: object, report: peak),
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
            appFrame: stack.first { $0.origin == .app && $0.primary?.file != nil } ?? stack.first { $0.origin == .app },
            history: representative.history,
            historyUnit: representative.historyUnit ?? "iteration",
            warning: representative.warning,
            streak: representative.streak,
            alloc: representative.alloc,
            // Shown as the directory the user named plus the file name, not as the resolved path.
            reportPaths: group.map { directory + "/" + ($0.path.split(separator: "/").last.map(String.init) ?? $0.path) })
    }

    /// The object type of an `alloc-storm` that crossed its limit while no layout was running.
    static let noLayoutRunning = "(no layout running)"

    /// One line describing the finding.
    static func title(kind: String, object: ObjectRef, report: Report) -> String {
        switch kind {
        case "layout-storm":
            return "\(object.label) laid out \(report.count) times in one event-loop iteration (threshold \(report.threshold))"
        case "layout-streak":
            var text = "\(object.label) relaid out in \(report.count) back-to-back frames (threshold \(report.threshold))"
            if let streak = report.streak {
                text += ", \(streak.lastIterationLayouts) layout\(streak.lastIterationLayouts == 1 ? "" : "s") in the last"
                if let before = streak.sizeBefore, let after = streak.sizeAfter, before != after {
                    text += ", size \(before.width)x\(before.height) -> \(after.width)x\(after.height)"
                }
            }
            return text
        case "toolkit-warning":
            guard let warning = report.warning else { fallthrough }
            return "\(warning.domain ?? "toolkit") \(warning.level): \(warning.message)"
        case "alloc-storm":
            let who = object.type == noLayoutRunning ? "code outside any layout" : object.label
            if report.countUnit.hasPrefix("bytes") {
                return "\(who) allocated \(ByteCount(report.count)) in one iteration (limit \(ByteCount(report.threshold)))"
            }
            return "\(who) made \(report.count) allocations in one iteration (limit \(report.threshold))"
        case "heap-growth":
            var text = "the heap grew \(ByteCount(report.count))"
            if let growth = report.alloc?.growth {
                let unit = report.historyUnit ?? "iteration"
                text += " over \(growth.iterations) \(unit)\(growth.iterations == 1 ? "" : "s")"
            }
            text += " (limit \(ByteCount(report.threshold)))"
            if let top = report.alloc?.topAllocators.first {
                text += "; the layouts of \(ObjectRef(type: top.type ?? "?", name: top.name, path: "").label) "
                    + "allocated the most (\(ByteCount(top.bytes)))"
            }
            return text
        default:
            return "\(kind): \(object.label), \(report.count) \(report.countUnit) (threshold \(report.threshold))"
        }
    }
}
