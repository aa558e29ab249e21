/// A finding in JSON (`--format json`, schema `loophunter/analysis`): every field under its own
/// name, and the ``Finding/detail`` as the fields of its case (see ``FindingDetail``), so the
/// document is the same as when those were fields of their own.
extension Finding: Codable {
    enum CodingKeys: String, CodingKey {
        case id, kind, severity, hook, object, objects, title, reportCount, suppressed, firstSeen, lastSeen
        case processes, threads, count, threshold, countUnit, members, stack, appFrame, history, historyUnit
        case alloc, reportPaths, cause
        // The detail.
        case streak, warning, stall, window, slowestSteps, timer, timerCallback, createdStack
    }

    /// A finding from its JSON form: the detail is the first of its sections present, in the
    /// order the schema added them (a finding written by ``encode(to:)`` has at most one).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        kind = try c.decode(ReportKind.self, forKey: .kind)
        severity = try c.decode(Severity.self, forKey: .severity)
        hook = try c.decode(String.self, forKey: .hook)
        object = try c.decode(ObjectRef.self, forKey: .object)
        objects = try c.decode([ObjectRef].self, forKey: .objects)
        title = try c.decode(String.self, forKey: .title)
        reportCount = try c.decode(Int.self, forKey: .reportCount)
        suppressed = try c.decode(UInt64.self, forKey: .suppressed)
        firstSeen = try c.decode(String.self, forKey: .firstSeen)
        lastSeen = try c.decode(String.self, forKey: .lastSeen)
        processes = try c.decode([ProcessRef].self, forKey: .processes)
        threads = try c.decode([String].self, forKey: .threads)
        count = try c.decode(UInt64.self, forKey: .count)
        threshold = try c.decode(UInt64.self, forKey: .threshold)
        countUnit = try c.decode(String.self, forKey: .countUnit)
        members = try c.decode([LoopMember].self, forKey: .members)
        stack = try c.decode([SymbolizedFrame].self, forKey: .stack)
        appFrame = try c.decodeIfPresent(SymbolizedFrame.self, forKey: .appFrame)
        history = try c.decode([HistoryEntry].self, forKey: .history)
        historyUnit = try c.decode(String.self, forKey: .historyUnit)
        alloc = try c.decodeIfPresent(ReportAlloc.self, forKey: .alloc)
        reportPaths = try c.decode([String].self, forKey: .reportPaths)
        cause = try c.decodeIfPresent(FindingCause.self, forKey: .cause)
        if let streak = try c.decodeIfPresent(StreakDetail.self, forKey: .streak) {
            detail = .streak(streak)
        } else if let warning = try c.decodeIfPresent(ToolkitWarning.self, forKey: .warning) {
            detail = .warning(warning)
        } else if let stall = try c.decodeIfPresent(ReportStall.self, forKey: .stall) {
            detail = .stall(stall)
        } else if let window = try c.decodeIfPresent(ReportWindow.self, forKey: .window) {
            detail = .window(window, slowestSteps: try c.decodeIfPresent([SymbolizedStep].self, forKey: .slowestSteps) ?? [])
        } else if let timer = try c.decodeIfPresent(ReportTimer.self, forKey: .timer) {
            detail = .timer(timer, callback: try c.decodeIfPresent(SymbolizedFrame.self, forKey: .timerCallback),
                            createdStack: try c.decodeIfPresent([SymbolizedFrame].self, forKey: .createdStack))
        } else {
            detail = .none
        }
    }

    /// Every field under its name; optional ones, and the detail's, only when present.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(kind, forKey: .kind)
        try c.encode(severity, forKey: .severity)
        try c.encode(hook, forKey: .hook)
        try c.encode(object, forKey: .object)
        try c.encode(objects, forKey: .objects)
        try c.encode(title, forKey: .title)
        try c.encode(reportCount, forKey: .reportCount)
        try c.encode(suppressed, forKey: .suppressed)
        try c.encode(firstSeen, forKey: .firstSeen)
        try c.encode(lastSeen, forKey: .lastSeen)
        try c.encode(processes, forKey: .processes)
        try c.encode(threads, forKey: .threads)
        try c.encode(count, forKey: .count)
        try c.encode(threshold, forKey: .threshold)
        try c.encode(countUnit, forKey: .countUnit)
        try c.encode(members, forKey: .members)
        try c.encode(stack, forKey: .stack)
        try c.encodeIfPresent(appFrame, forKey: .appFrame)
        try c.encode(history, forKey: .history)
        try c.encode(historyUnit, forKey: .historyUnit)
        try c.encodeIfPresent(alloc, forKey: .alloc)
        try c.encode(reportPaths, forKey: .reportPaths)
        try c.encodeIfPresent(cause, forKey: .cause)
        switch detail {
        case .none:
            break
        case .streak(let streak):
            try c.encode(streak, forKey: .streak)
        case .warning(let warning):
            try c.encode(warning, forKey: .warning)
        case .stall(let stall):
            try c.encode(stall, forKey: .stall)
        case .window(let window, let slowestSteps):
            try c.encode(window, forKey: .window)
            try c.encode(slowestSteps, forKey: .slowestSteps)
        case .timer(let timer, let callback, let createdStack):
            try c.encode(timer, forKey: .timer)
            try c.encodeIfPresent(callback, forKey: .timerCallback)
            try c.encodeIfPresent(createdStack, forKey: .createdStack)
        }
    }
}
