import Foundation

/// NUL-terminated copies of Swift strings for C calls (freed on deinit).
package final class CStrings {
    package private(set) var pointers: [UnsafeMutablePointer<CChar>?]

    /// `bytes` lets a test pass byte strings that are not valid UTF-8.
    package init(_ strings: [String]) {
        pointers = strings.map { strdup($0) }
    }

    package init(bytes: [[UInt8]]) {
        pointers = bytes.map { b in
            let p = UnsafeMutablePointer<CChar>.allocate(capacity: b.count + 1)
            for (i, byte) in b.enumerated() { p[i] = CChar(bitPattern: byte) }
            p[b.count] = 0
            return p
        }
    }

    /// A NULL-terminated array (for envp).
    package func withArray<R>(_ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) throws -> R) rethrows -> R {
        var array = pointers + [nil]
        return try array.withUnsafeMutableBufferPointer { try body($0.baseAddress!) }
    }

    deinit { pointers.forEach { free($0) } }
}

/// The text of a fixed-size C char array imported as a tuple.
package func cText<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { raw in
        let bytes = raw.prefix { $0 != 0 }
        return String(decoding: bytes, as: UTF8.self)
    }
}
