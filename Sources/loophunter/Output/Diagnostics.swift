import Foundation

/// Messages for the person at the terminal: one line each, on stderr, prefixed `loophunter:`.
enum Diagnostics {
    static func say(_ message: String) {
        FileHandle.standardError.write(Data("loophunter: \(message)\n".utf8))
    }
}
