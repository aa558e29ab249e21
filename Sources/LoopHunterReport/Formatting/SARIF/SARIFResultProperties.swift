/// The property bag of a result: the finding's numbers and where it was seen.
struct SARIFResultProperties: Codable, Sendable, Equatable {
    let kind: String
    let hook: String
    /// The highest count among the reports, with its threshold and unit.
    let count: UInt64
    let threshold: UInt64
    let countUnit: String
    let reportCount: Int
    /// Repeats the preloads did not write.
    let suppressed: UInt64
    let processes: [ProcessRef]
    let threads: [String]
    let firstSeen: String
    let lastSeen: String
    /// The view path of the representative report's object.
    let view: String
    /// Every distinct object seen.
    let objects: [String]
    let reportFiles: [String]
    /// The memory side, when the reports carry it (absent otherwise).
    var alloc: SARIFAllocProperties? = nil
    /// The event-loop health side (schema 1.3 kinds; absent otherwise).
    var health: SARIFHealthProperties? = nil
    /// Why layout was requested again (layout findings whose reports carry a cause; absent otherwise).
    var cause: SARIFCauseProperties? = nil
}
