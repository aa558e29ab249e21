import Foundation

/// SARIF 2.1.0, for code-scanning UIs (GitHub's among them): one rule per kind of finding present,
/// one result per finding at the first frame of the app's code that has a source file (else at
/// its function and module), with the whole stack, the other objects of the loop as related
/// locations, and a partial fingerprint that stays the same across runs. Files that could not be
/// read are tool execution notifications of a successful run. A finding a `--suppress` rule
/// matched is a result with a `suppressions` entry naming the rule.
public struct SARIFFormatter: FindingsFormatter {
    /// Source files under this directory are given relative to it (`uriBaseId` `SRCROOT`), as
    /// code-scanning UIs expect paths relative to the repository. A relative root is taken
    /// relative to the working directory when the formatter is made.
    public let sourceRoot: String?
    private let mapper: SARIFSourceMapper

    public static let toolVersion = "0.1.0"
    /// The key of the finding id in each result's `partialFingerprints`.
    public static let fingerprintKey = "loophunterFinding/v1"

    public init(sourceRoot: String? = nil) {
        self.sourceRoot = sourceRoot
        mapper = SARIFSourceMapper(sourceRoot: sourceRoot)
    }

    public func format(_ a: Analysis) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(log(a)) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    func log(_ a: Analysis) -> SARIFLog {
        var kinds: [ReportKind] = []
        let suppressed = a.suppressed ?? []
        for f in a.findings + suppressed.map(\.finding) where !kinds.contains(f.kind) { kinds.append(f.kind) }
        let driver = SARIFToolComponent(name: "LoopHunter", version: Self.toolVersion,
                                        semanticVersion: Self.toolVersion, rules: kinds.map(SARIFRule.init(kind:)))
        let notifications = (a.unseen ?? []).map { SARIFNotification(level: "error", message: SARIFMessage(text: "not seen: " + $0)) }
            + a.problems.map { SARIFNotification(level: "warning", message: SARIFMessage(text: $0)) }
        let run = SARIFRun(
            tool: SARIFTool(driver: driver),
            invocations: [SARIFInvocation(executionSuccessful: true,
                                          toolExecutionNotifications: notifications.isEmpty ? nil : notifications)],
            originalUriBaseIds: mapper.originalUriBaseIds,
            results: a.findings.map { result($0, ruleIndex: kinds.firstIndex(of: $0.kind) ?? 0) }
                + suppressed.map { s in
                    var r = result(s.finding, ruleIndex: kinds.firstIndex(of: s.finding.kind) ?? 0)
                    r.suppressions = [SARIFSuppression(kind: "external", justification: FindingText.suppressedRule(s))]
                    return r
                })
        return SARIFLog(runs: [run])
    }

    private func result(_ f: Finding, ruleIndex: Int) -> SARIFResult {
        var text = "\(f.title). \(FindingText.reports(f)). View: \(FindingText.view(f))."
        if !f.members.isEmpty { text += " Loop: \(FindingText.members(f))." }
        for (label, value) in FindingText.causeRows(f) {
            text += " \(label.prefix(1).uppercased() + label.dropFirst()): \(value)."
        }
        for (label, value) in FindingText.memoryRows(f, sparkline: false) + FindingText.healthRows(f) {
            text += " \(label.prefix(1).uppercased() + label.dropFirst()): \(value)."
        }
        let related = f.members.enumerated().map { index, member in
            let label = ObjectRef(type: member.type, name: member.name, path: "").label
            return SARIFLocation(id: index + 1,
                                 logicalLocations: [SARIFLogicalLocation(name: label, kind: "object")],
                                 message: SARIFMessage(text: "\(label): \(member.count) \(f.countUnit), in the same loop (\(member.hook))"))
        }
        return SARIFResult(
            ruleId: f.kind.rawValue,
            ruleIndex: ruleIndex,
            level: f.severity.rawValue,
            message: SARIFMessage(text: text),
            locations: [primaryLocation(f)],
            partialFingerprints: [Self.fingerprintKey: f.id],
            stacks: stacks(f),
            relatedLocations: related.isEmpty ? nil : related,
            properties: SARIFResultProperties(
                kind: f.kind.rawValue, hook: f.hook, count: f.count, threshold: f.threshold, countUnit: f.countUnit,
                reportCount: f.reportCount, suppressed: f.suppressed, processes: f.processes, threads: f.threads,
                firstSeen: f.firstSeen, lastSeen: f.lastSeen, view: FindingText.view(f), objects: f.objects.map(\.label),
                reportFiles: f.reportPaths, alloc: f.alloc.map(SARIFAllocProperties.init),
                health: SARIFHealthProperties(f), cause: f.cause.map(SARIFCauseProperties.init)))
    }

    /// The representative report's stack; for a timer outliving its target, also where the
    /// source was created; for a layout finding with a cause, the request's stack (when it is not
    /// the representative's) and where each callback of a deferred cause was added.
    private func stacks(_ f: Finding) -> [SARIFStack] {
        let what = f.kind.stackCaption.map { "Stack of the representative report (\($0))" }
            ?? "Stack of the representative report at the breach"
        var stacks = [SARIFStack(
            message: SARIFMessage(text: what + ", innermost frame first (thread \(f.threads.first ?? "?"))."),
            frames: f.stack.map(stackFrame))]
        if let created = f.createdStack {
            stacks.append(SARIFStack(message: SARIFMessage(text: "Where the timer source was created, innermost frame first."),
                                     frames: created.map(stackFrame)))
        }
        for cause in FindingText.causeStacks(f) {
            stacks.append(SARIFStack(message: SARIFMessage(text: "Cause: \(cause.title), innermost frame first."),
                                     frames: cause.stack.map(stackFrame)))
        }
        return stacks
    }

    /// The first app frame with a source file; else the app frame (or, with none, the innermost
    /// frame) by function and module; with no stack at all, the object.
    private func primaryLocation(_ f: Finding) -> SARIFLocation {
        if let frame = f.appFrame ?? f.stack.first {
            let physical = physicalLocation(frame)
            return SARIFLocation(
                physicalLocation: physical,
                logicalLocations: [logicalLocation(frame)],
                message: physical == nil ? SARIFMessage(text: "in \(frame.moduleName ?? "an unknown module"), no source file known") : nil)
        }
        return SARIFLocation(logicalLocations: [SARIFLogicalLocation(name: f.object.label, kind: "object")])
    }

    private func stackFrame(_ frame: SymbolizedFrame) -> SARIFStackFrame {
        let inlinedInto = FindingText.inlinedInto(frame)
        return SARIFStackFrame(
            location: frame.symbols.isEmpty ? nil
                : SARIFLocation(physicalLocation: physicalLocation(frame), logicalLocations: [logicalLocation(frame)]),
            module: frame.moduleName,
            properties: SARIFFrameProperties(
                index: frame.index, origin: frame.origin.rawValue, symbolSource: frame.source.rawValue, pc: frame.pc,
                offset: frame.offset, modulePath: frame.module, inlinedInto: inlinedInto.isEmpty ? nil : inlinedInto,
                note: frame.note))
    }

    private func physicalLocation(_ frame: SymbolizedFrame) -> SARIFPhysicalLocation? {
        guard let symbol = frame.primary, let file = symbol.file, !file.isEmpty else { return nil }
        let region = symbol.line.flatMap { line in
            line > 0 ? SARIFRegion(startLine: line, startColumn: symbol.column.flatMap { $0 > 0 ? $0 : nil }) : nil
        }
        return SARIFPhysicalLocation(artifactLocation: mapper.artifactLocation(ofFile: file), region: region)
    }

    private func logicalLocation(_ frame: SymbolizedFrame) -> SARIFLogicalLocation {
        let function = frame.displayName
        return SARIFLogicalLocation(name: function, fullyQualifiedName: "\(frame.moduleName ?? "?")!\(function)", kind: "function")
    }
}
