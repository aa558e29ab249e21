import CompressNIO
import Foundation
import NIOCore

/// gzip for request bodies (`Content-Encoding: gzip`), through CompressNIO's zlib binding.
enum GzipCoding {
    /// The body gzipped, or nil when zlib failed (the body is then sent as it is).
    static func compress(_ data: Data) -> ByteBuffer? {
        var input = ByteBuffer(bytes: data)
        return try? input.compress(with: .gzip())
    }
}
