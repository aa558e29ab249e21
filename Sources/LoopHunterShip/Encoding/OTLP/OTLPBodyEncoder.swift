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
    /// record's own fields encoded by swift-protobuf from the generated message, then its attributes
    /// (field 6, most of its bytes) written by ``OTLPAttributeWriter`` in one pass. The bytes decode
    /// to the same LogRecord (tested), with the attributes after the record's other fields, which
    /// protobuf allows.
    func record(_ record: OTLPLogRecord) throws -> Data {
        guard encoding == .protobuf else { return try encode(OTLPMessages.record(record)) }
        var body: [UInt8] = try OTLPMessages.record(record, attributes: false).serializedBytes()
        for attribute in record.attributes { OTLPAttributeWriter.append(attribute, asField: 6, to: &body) } // LogRecord.attributes
        return Data(body)
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
        OTLPAttributeWriter.appendVarint(UInt64(length), to: &body)
    }
}
