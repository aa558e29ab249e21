import Foundation
import SwiftProtobuf

/// Writes OTLP/HTTP request bodies (`ExportLogsServiceRequest`) in one encoding, from the
/// generated messages, piece by piece: each record, resource and scope is encoded once, its size
/// counts against the request size cap, and a request is then joined from those bytes without
/// encoding anything again.
///
/// Joining is exact in both encodings: a protobuf message is the concatenation of its fields
/// (a nested message is its tag, its length as a varint, its bytes), and a JSON object is its
/// members between braces. The result decodes to the same `ExportLogsServiceRequest` as the
/// whole message serialized at once.
struct OTLPBodyEncoder: Sendable {
    let encoding: OTLPEncoding

    init(_ encoding: OTLPEncoding) {
        self.encoding = encoding
    }

    /// OTLP/JSON: lowerCamelCase names and 64-bit integers as strings (proto3 JSON), enums as
    /// numbers (OTLP/JSON's own rule).
    private static let jsonOptions: JSONEncodingOptions = {
        var options = JSONEncodingOptions()
        options.alwaysPrintEnumsAsInts = true
        return options
    }()

    func encode(_ message: some SwiftProtobuf.Message) throws -> Data {
        switch encoding {
        case .protobuf: return try message.serializedBytes()
        case .json: return try message.jsonUTF8Data(options: Self.jsonOptions)
        }
    }

    /// A LogRecord's bytes. JSON: the generated message, encoded by swift-protobuf. Protobuf: the
    /// same message, encoded by swift-protobuf in pieces that are joined as the wire format joins
    /// them: the record without its attributes, then each attribute (field 6); a value that nests
    /// arrays or maps (a stack of frames, the callback chain of a cause) is split at each array
    /// and map that holds more of them, and every flat piece (a frame's map, a string) is a
    /// generated message encoded by swift-protobuf.
    ///
    /// swift-protobuf writes a nested message's length by computing its size, which visits the
    /// whole nested message again at every level it is nested in: a frame's fields, seven to nine
    /// levels down in a record, were sized that many times, most of the shipper's CPU time. In
    /// pieces, no piece is deeper than a frame's map. The bytes decode to the same LogRecord
    /// (tested), with the attributes after the record's other fields, which protobuf allows.
    func record(_ record: OTLPLogRecord) throws -> Data {
        guard encoding == .protobuf else { return try encode(OTLPMessages.record(record)) }
        var body: Data = try OTLPMessages.record(record, attributes: false).serializedBytes()
        for attribute in record.attributes {
            let keyValue = try Self.protobufKeyValue(attribute)
            Self.appendHeader(field: 6, length: keyValue.count, to: &body) // LogRecord.attributes
            body.append(keyValue)
        }
        return body
    }

    // Field numbers (common.proto): KeyValue.key = 1, .value = 2; AnyValue.array_value = 5,
    // .kvlist_value = 6; ArrayValue.values = 1; KeyValueList.values = 1.

    /// A KeyValue in protobuf: whole when its value is flat, else its key and its value in pieces.
    private static func protobufKeyValue(_ attribute: OTLPKeyValue) throws -> Data {
        guard nests(attribute.value) else { return try OTLPMessages.keyValue(attribute).serializedBytes() }
        var keyOnly = Opentelemetry_Proto_Common_V1_KeyValue()
        keyOnly.key = attribute.key
        var keyValue: Data = try keyOnly.serializedBytes()
        let value = try protobufAnyValue(attribute.value)
        appendHeader(field: 2, length: value.count, to: &keyValue)
        keyValue.append(value)
        return keyValue
    }

    /// An AnyValue in protobuf: whole when flat; an array or map that nests, element by element.
    private static func protobufAnyValue(_ value: OTLPAnyValue) throws -> Data {
        var elements = Data()
        let field: Int
        switch value {
        case .array(let values) where nests(value):
            for element in values {
                let bytes = try protobufAnyValue(element)
                appendHeader(field: 1, length: bytes.count, to: &elements)
                elements.append(bytes)
            }
            field = 5
        case .keyValues(let values) where nests(value):
            for element in values {
                let bytes = try protobufKeyValue(element)
                appendHeader(field: 1, length: bytes.count, to: &elements)
                elements.append(bytes)
            }
            field = 6
        default:
            return try OTLPMessages.anyValue(value).serializedBytes()
        }
        var bytes = Data(capacity: elements.count + 6)
        appendHeader(field: field, length: elements.count, to: &bytes)
        bytes.append(elements)
        return bytes
    }

    /// Whether a value holds arrays or maps (is more than a scalar, or a map or array of scalars).
    private static func nests(_ value: OTLPAnyValue) -> Bool {
        switch value {
        case .array(let values): return values.contains(where: isComposite)
        case .keyValues(let values): return values.contains { isComposite($0.value) }
        default: return false
        }
    }

    private static func isComposite(_ value: OTLPAnyValue) -> Bool {
        switch value {
        case .array, .keyValues: return true
        default: return false
        }
    }

    /// The bytes of a request before any group: `{"resourceLogs":[` `]}` in JSON, none in protobuf.
    var envelopeBytes: Int { encoding == .json ? 19 : 0 }

    /// The most bytes a record of `count` encoded bytes adds to a body: a comma in JSON; its tag
    /// and length in protobuf.
    func recordCost(_ count: Int) -> Int {
        encoding == .json ? count + 1 : count + 1 + Self.varintSize(count)
    }

    /// The most bytes a resource group adds besides its records: the resource, the scope and the
    /// structure around them (JSON: `{"resource":` `,"scopeLogs":[{"scope":` `,"logRecords":[`
    /// `]}]},`; protobuf: four tags and four lengths of at most 5 bytes).
    func groupCost(resource: Int, scope: Int) -> Int {
        resource + scope + (encoding == .json ? 60 : 24)
    }

    /// The request: one `ResourceLogs` per group, in order, each with one `ScopeLogs` (`scope`)
    /// holding the group's records in order.
    func assemble(_ groups: [(resource: Data, records: [Data])], scope: Data) -> Data {
        switch encoding {
        case .json: return assembleJSON(groups, scope: scope)
        case .protobuf: return assembleProtobuf(groups, scope: scope)
        }
    }

    private func assembleJSON(_ groups: [(resource: Data, records: [Data])], scope: Data) -> Data {
        var body = Data("{\"resourceLogs\":[".utf8)
        for (i, group) in groups.enumerated() {
            if i > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: "{\"resource\":".utf8)
            body.append(group.resource)
            body.append(contentsOf: ",\"scopeLogs\":[{\"scope\":".utf8)
            body.append(scope)
            body.append(contentsOf: ",\"logRecords\":[".utf8)
            for (j, record) in group.records.enumerated() {
                if j > 0 { body.append(UInt8(ascii: ",")) }
                body.append(record)
            }
            body.append(contentsOf: "]}]}".utf8)
        }
        body.append(contentsOf: "]}".utf8)
        return body
    }

    // Field numbers (logs_service.proto, logs.proto): ExportLogsServiceRequest.resource_logs = 1;
    // ResourceLogs.resource = 1, .scope_logs = 2; ScopeLogs.scope = 1, .log_records = 2.
    private func assembleProtobuf(_ groups: [(resource: Data, records: [Data])], scope: Data) -> Data {
        var total = 0
        var sizes: [(resourceLogs: Int, scopeLogs: Int)] = []
        for group in groups {
            var scopeLogs = Self.fieldSize(scope.count)
            for record in group.records { scopeLogs += Self.fieldSize(record.count) }
            let resourceLogs = Self.fieldSize(group.resource.count) + Self.fieldSize(scopeLogs)
            sizes.append((resourceLogs, scopeLogs))
            total += Self.fieldSize(resourceLogs)
        }
        var body = Data(capacity: total)
        for (group, size) in zip(groups, sizes) {
            Self.appendHeader(field: 1, length: size.resourceLogs, to: &body)
            Self.appendHeader(field: 1, length: group.resource.count, to: &body)
            body.append(group.resource)
            Self.appendHeader(field: 2, length: size.scopeLogs, to: &body)
            Self.appendHeader(field: 1, length: scope.count, to: &body)
            body.append(scope)
            for record in group.records {
                Self.appendHeader(field: 2, length: record.count, to: &body)
                body.append(record)
            }
        }
        return body
    }

    /// A length-delimited field's bytes: its tag (one byte for fields 1 and 2), its length, its payload.
    private static func fieldSize(_ length: Int) -> Int { 1 + varintSize(length) + length }

    private static func varintSize(_ value: Int) -> Int {
        var size = 1
        var rest = UInt64(value) >> 7
        while rest != 0 { size += 1; rest >>= 7 }
        return size
    }

    static func appendHeader(field: Int, length: Int, to body: inout Data) {
        body.append(UInt8(field << 3 | 2)) // wire type 2: length-delimited
        var rest = UInt64(length)
        while rest >= 0x80 {
            body.append(UInt8(rest & 0x7f) | 0x80)
            rest >>= 7
        }
        body.append(UInt8(rest))
    }
}
