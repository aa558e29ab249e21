import Foundation

/// The `message` of a `google.rpc.Status`: what an OTLP/HTTP collector answers a protobuf
/// request's errors with (field 1 the code, field 2 the message, field 3 details). Read from the
/// protobuf wire format directly: it is the one field the shipper shows of it.
enum RPCStatusMessage {
    /// The message, or nil when the body is not a Status with one.
    static func message(in body: Data) -> String? {
        let bytes = [UInt8](body.prefix(HTTPTransport.responseLimit))
        var i = 0
        func varint() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while i < bytes.count, shift < 64 {
                let byte = bytes[i]
                i += 1
                value |= UInt64(byte & 0x7f) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
            return nil
        }
        var message: String?
        while i < bytes.count {
            guard let key = varint(), key >> 3 != 0 else { return nil }
            switch key & 7 {
            case 0: guard varint() != nil else { return nil }
            case 1: i += 8
            case 5: i += 4
            case 2:
                guard let length = varint(), length <= UInt64(bytes.count - i) else { return nil }
                if key >> 3 == 2 { message = String(decoding: bytes[i..<i + Int(length)], as: UTF8.self) }
                i += Int(length)
            default: return nil
            }
            guard i <= bytes.count else { return nil }
        }
        return message?.isEmpty == false ? message : nil
    }
}
