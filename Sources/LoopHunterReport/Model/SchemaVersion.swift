import LoopHunterCore

/// The `version` field of a report or summary file: `"MAJOR.MINOR"`.
///
/// A reader understands every minor version of the major versions it was built for; minor versions
/// only add fields. A file of another major version is refused (see ``ReportFileError``).
public struct SchemaVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let major: Int
    public let minor: Int

    /// The version this build writes and reads: the preload's own (`lh_shared.h`), so the two
    /// cannot disagree.
    public static let current = SchemaVersion(major: Int(LH_SCHEMA_MAJOR), minor: Int(LH_SCHEMA_MINOR))

    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// Parses `"1.0"`; returns nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let major = Int(parts[0]), let minor = Int(parts[1]),
              major >= 0, minor >= 0 else { return nil }
        self.init(major: major, minor: minor)
    }

    public var description: String { "\(major).\(minor)" }

    public static func < (lhs: SchemaVersion, rhs: SchemaVersion) -> Bool {
        (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
    }
}
