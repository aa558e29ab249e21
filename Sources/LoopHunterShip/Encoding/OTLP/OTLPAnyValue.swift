/// An OTLP `AnyValue` in the OTLP/JSON encoding: one key naming the type, 64-bit integers as
/// decimal strings (proto3 JSON), arrays and maps under `values`.
public indirect enum OTLPAnyValue: Encodable, Sendable, Equatable {
    case string(String)
    case int(Int64)
    case bool(Bool)
    case double(Double)
    case array([OTLPAnyValue])
    case keyValues([OTLPKeyValue])

    enum CodingKeys: String, CodingKey {
        case stringValue, intValue, boolValue, doubleValue, arrayValue, kvlistValue
    }

    enum ListKeys: String, CodingKey {
        case values
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .string(let value): try container.encode(value, forKey: .stringValue)
        case .int(let value): try container.encode(String(value), forKey: .intValue)
        case .bool(let value): try container.encode(value, forKey: .boolValue)
        case .double(let value): try container.encode(value, forKey: .doubleValue)
        case .array(let values):
            var list = container.nestedContainer(keyedBy: ListKeys.self, forKey: .arrayValue)
            try list.encode(values, forKey: .values)
        case .keyValues(let values):
            var list = container.nestedContainer(keyedBy: ListKeys.self, forKey: .kvlistValue)
            try list.encode(values, forKey: .values)
        }
    }
}
