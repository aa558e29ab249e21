/// The lines the test programs print about what they did.
package enum ProbeOutput {
    /// `<what> calls=.. bytes=.. frees=.. freed_bytes=..` (or `allocs=.. frees=..`) as numbers.
    package static func numbers(_ line: String) -> [String: UInt64] {
        var out: [String: UInt64] = [:]
        for field in line.split(whereSeparator: \.isWhitespace) {
            let kv = field.split(separator: "=")
            if kv.count == 2, let v = UInt64(kv[1]) { out[String(kv[0])] = v }
        }
        return out
    }
}
