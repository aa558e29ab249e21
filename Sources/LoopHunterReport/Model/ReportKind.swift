/// What a report (and every finding grouped from it) is about: which detector of the preload
/// fired. Everything the reporter knows about a kind is here or in an extension of this type: its
/// ``severity``, the title of its findings (`title(object:report:appCode:callback:)`), its SARIF ``rule``,
/// how its reports are grouped (``grouping``) and what its stack shows (``stackCaption``).
///
/// The raw values are the report schema's `kind` strings, exactly as the preload writes them. A
/// later minor version of the schema may add kinds: a report of a kind this build does not know
/// is read all the same, as ``other(_:)``, and shown under its name with generic wording.
public enum ReportKind: Sendable {
    /// `layout-storm`: an object laid out more often in one event-loop iteration than the
    /// threshold allows (schema 1.0).
    case layoutStorm
    /// `layout-streak`: an object hot in too many back-to-back layout iterations (schema 1.0).
    case layoutStreak
    /// `toolkit-warning`: the toolkit's own warning about layout (schema 1.1).
    case toolkitWarning
    /// `alloc-storm`: one event-loop iteration allocated more than the limit (schema 1.2).
    case allocStorm
    /// `heap-growth`: the live heap grew in iteration after iteration (schema 1.2).
    case heapGrowth
    /// `stall`: one event-loop iteration ran so long that the UI froze (schema 1.3).
    case stall
    /// `slow-window`: a window took too long to its first frame (schema 1.3).
    case slowWindow
    /// `timer-storm`: timer sources pile up, or one callback fires too often (schema 1.3).
    case timerStorm
    /// `timer-outlives-target`: a live timer source's user data was freed (schema 1.3).
    case timerOutlivesTarget
    /// `layout-loop`: a widget relaid out by layout-caused requests in too many back-to-back frames
    /// of its frame clock (schema 1.6); the report's `cause` says what re-requested the layout.
    case layoutLoop
    /// A kind this build does not know (a later minor schema version), by its raw value. Never
    /// holds the raw value of a known kind: ``init(rawValue:)`` gives the known case for those.
    case other(String)

    /// Every kind this build knows, in the order the schema added them.
    public static let known: [ReportKind] = [
        .layoutStorm, .layoutStreak, .toolkitWarning, .allocStorm, .heapGrowth,
        .stall, .slowWindow, .timerStorm, .timerOutlivesTarget, .layoutLoop,
    ]

    /// The kind named by a report's `kind` string: a known kind, or ``other(_:)``. Never fails.
    public init(rawValue: String) {
        switch rawValue {
        case "layout-storm": self = .layoutStorm
        case "layout-streak": self = .layoutStreak
        case "toolkit-warning": self = .toolkitWarning
        case "alloc-storm": self = .allocStorm
        case "heap-growth": self = .heapGrowth
        case "stall": self = .stall
        case "slow-window": self = .slowWindow
        case "timer-storm": self = .timerStorm
        case "timer-outlives-target": self = .timerOutlivesTarget
        case "layout-loop": self = .layoutLoop
        default: self = .other(rawValue)
        }
    }

    /// The report schema's `kind` string, e.g. `layout-storm`.
    public var rawValue: String {
        switch self {
        case .layoutStorm: "layout-storm"
        case .layoutStreak: "layout-streak"
        case .toolkitWarning: "toolkit-warning"
        case .allocStorm: "alloc-storm"
        case .heapGrowth: "heap-growth"
        case .stall: "stall"
        case .slowWindow: "slow-window"
        case .timerStorm: "timer-storm"
        case .timerOutlivesTarget: "timer-outlives-target"
        case .layoutLoop: "layout-loop"
        case .other(let rawValue): rawValue
        }
    }

    /// How bad a finding of this kind is, for CI formats (SARIF level, JUnit failure vs. pass).
    ///
    /// Layout loops pin the CPU and are bugs: errors. So is an allocation storm: tens of MiB
    /// allocated in one iteration stall the UI and push the process towards an out-of-memory kill
    /// whatever the program meant. Heap growth is the shape of a leak but may be a legitimate
    /// build-up (a document loading, a cache filling): a warning, as are a toolkit's own warnings
    /// and kinds this build does not know. Of the event-loop health kinds (schema 1.3), a stall (a
    /// frozen UI) and a timer whose callback will run on freed memory are errors; a slow first
    /// frame and a timer storm (sources piling up, a callback firing too often) are warnings.
    public var severity: Severity {
        switch self {
        case .layoutStorm, .layoutStreak, .layoutLoop, .allocStorm, .stall, .timerOutlivesTarget: .error
        case .toolkitWarning, .heapGrowth, .slowWindow, .timerStorm, .other: .warning
        }
    }

    /// What the stack of a finding of this kind is, when it is not simply where the threshold was
    /// crossed: `where the thread was stuck`, `where the window was created`, ...; nil otherwise.
    /// Every format prints it with the stack.
    public var stackCaption: String? {
        switch self {
        case .stall: "where the thread was stuck"
        case .slowWindow: "where the window was created"
        case .timerStorm: "where the source was created"
        case .timerOutlivesTarget: "where the target was freed"
        case .layoutLoop: "the request that closed the loop"
        case .layoutStorm, .layoutStreak, .toolkitWarning, .allocStorm, .heapGrowth, .other: nil
        }
    }

    /// How reports of this kind are grouped into findings: the parts of the group key besides
    /// kind, object type and code (see ``Analyzer/groupKey(kind:hook:type:detail:frames:depth:)``).
    ///
    /// - A toolkit warning is told apart by its format (the text varies, the format does not).
    /// - A heap growth, whose object is always the process heap and whose stack is only where the
    ///   event loop noticed, by the type and hook of its top allocator.
    /// - The event-loop health kinds (schema 1.3) by their first app frame only: the stuck frame
    ///   of a stall, the code that created a window or a timer source; what called it varies more
    ///   than what it is. A stall is grouped under the hook `stall` (the wait its iteration began
    ///   from does not matter), a slow window under `window`, and a timer by its callback too.
    /// - A kind this build does not know by the report's own hook, ``Analyzer/groupDepth`` app frames, and its
    ///   toolkit warning's format or its timer's callback when it has one.
    public var grouping: ReportGrouping {
        switch self {
        case .layoutStorm, .layoutStreak, .layoutLoop, .allocStorm: ReportGrouping()
        case .toolkitWarning: ReportGrouping(details: [.warningFormat])
        case .heapGrowth: ReportGrouping(details: [.topAllocator])
        case .stall: ReportGrouping(hook: "stall", depth: 1)
        case .slowWindow: ReportGrouping(hook: "window", depth: 1)
        case .timerStorm, .timerOutlivesTarget: ReportGrouping(depth: 1, details: [.timerCallback])
        case .other: ReportGrouping(details: [.warningFormat, .timerCallback])
        }
    }
}

// A non-failable `init(rawValue:)` meets the protocol's failable requirement: every string names
// a kind.
extension ReportKind: RawRepresentable {}

// Two values are the same kind when their raw values are: `.other("stall")`, made by hand, is
// `.stall`.
extension ReportKind: Hashable {
    public static func == (lhs: ReportKind, rhs: ReportKind) -> Bool { lhs.rawValue == rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}

extension ReportKind: ExpressibleByStringLiteral {
    /// The kind of a raw value written in code: `"layout-storm"` is ``layoutStorm``.
    public init(stringLiteral value: String) { self.init(rawValue: value) }
}

extension ReportKind: CustomStringConvertible {
    /// The raw value, so that a kind reads in messages as in the reports.
    public var description: String { rawValue }
}

// In JSON (the reports, `--format json`) a kind is its raw value; any string decodes.
extension ReportKind: Codable {
    /// The kind named by a JSON string; fails only when the value is not a string.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// The raw value, as a JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

// The fast report path (see ``JSONTape``): a string, as the `Decodable` init reads it.
extension ReportKind: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) { self.init(rawValue: try tape.string()) }
}
