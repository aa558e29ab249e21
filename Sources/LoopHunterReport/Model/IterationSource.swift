/// How the process's event-loop iterations were recognised.
public struct IterationSource: Codable, Sendable, Equatable {
    /// LOOPHUNTER_LOOP_LIBS: library names whose waits mark iterations.
    public let loopLibraries: [String]
    /// Code ranges of those libraries found in the process.
    public let loopCodeRanges: UInt64
    /// None was found: every poll()-family return counted as an iteration.
    public let everyWaitIsAnIteration: Bool

    enum CodingKeys: String, CodingKey {
        case loopLibraries = "loop_libraries"
        case loopCodeRanges = "loop_code_ranges"
        case everyWaitIsAnIteration = "every_wait_is_an_iteration"
    }
}
