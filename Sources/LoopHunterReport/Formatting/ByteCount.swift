/// A number of bytes as people read it: `512 B`, `1.5 KiB`, `64.1 MiB`, `2.0 GiB` (binary units,
/// one decimal), or without the decimal when the count is a whole number of its unit (`64 MiB`,
/// as limits usually are), so that a rounded value never reads as an exact one. The one place
/// bytes are formatted: titles and every format say the same, on every machine (no locale).
public struct ByteCount: Sendable, Hashable, CustomStringConvertible {
    public let bytes: UInt64

    public init(_ bytes: UInt64) {
        self.bytes = bytes
    }

    private static let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]

    public var description: String {
        var unit = 0
        while unit < Self.units.count - 1, bytes >= Self.scale(unit + 1) { unit += 1 }
        let scale = Self.scale(unit)
        if bytes % scale == 0 { return "\(bytes / scale) \(Self.units[unit])" }
        var tenths = (Double(bytes) / Double(scale) * 10).rounded()
        // 1023.96 KiB rounds to 1024.0 KiB: say 1.0 MiB instead.
        if tenths >= 10_240, unit < Self.units.count - 1 {
            unit += 1
            tenths = (Double(bytes) / Double(Self.scale(unit)) * 10).rounded()
        }
        let whole = UInt64(tenths) / 10, tenth = UInt64(tenths) % 10
        return "\(whole).\(tenth) \(Self.units[unit])"
    }

    /// 1024^unit.
    private static func scale(_ unit: Int) -> UInt64 { UInt64(1) << (10 * UInt64(unit)) }
}
