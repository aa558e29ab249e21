/// The value of one LOOPHUNTER_* variable in a summary: a number, an on/off flag or text.
public enum ConfigValue: Codable, Sendable, Equatable, CustomStringConvertible {
    case number(UInt64)
    case flag(Bool)
    case text(String)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let flag = try? container.decode(Bool.self) {
            self = .flag(flag)
        } else if let number = try? container.decode(UInt64.self) {
            self = .number(number)
        } else {
            self = .text(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let value): try container.encode(value)
        case .flag(let value): try container.encode(value)
        case .text(let value): try container.encode(value)
        }
    }

    public var description: String {
        switch self {
        case .number(let value): return String(value)
        case .flag(let value): return value ? "1" : "0"
        case .text(let value): return value
        }
    }
}
