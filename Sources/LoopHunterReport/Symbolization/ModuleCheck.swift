import Foundation

/// Whether the module file on disk is the one that ran.
public enum ModuleCheck: Hashable, Sendable {
    case verified
    /// The report recorded no build-id: the file cannot be checked and is trusted as is.
    case unchecked
    case missing
    case mismatch(onDisk: String?)

    /// Checks `path` against the build-id a report recorded.
    public static func check(path: String, recorded: String?) -> ModuleCheck {
        guard FileManager.default.isReadableFile(atPath: path) else { return .missing }
        guard let recorded, !recorded.isEmpty else { return .unchecked }
        let onDisk = ELFFile.buildID(path: path)
        return onDisk == recorded ? .verified : .mismatch(onDisk: onDisk)
    }

    /// Debug information of the file on disk describes the code that ran.
    public var trusted: Bool { self == .verified || self == .unchecked }

    /// Why the file's debug information is not used.
    public func note(path: String, recorded: String?) -> String? {
        switch self {
        case .verified, .unchecked: return nil
        case .missing: return "\(path) is not on this machine"
        case .mismatch(let onDisk):
            return "\(path) was rebuilt since the report (build-id \(onDisk.map { String($0.prefix(12)) } ?? "none") on disk, "
                + "\(recorded.map { String($0.prefix(12)) } ?? "none") in the report)"
        }
    }
}
