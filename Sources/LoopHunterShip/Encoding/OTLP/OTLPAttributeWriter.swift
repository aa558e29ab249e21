/// Writes a record's attributes (`KeyValue`s, each holding an `AnyValue` tree) in the protobuf
/// wire format of common.proto, straight from the mapping's values, in one pass.
///
/// The attributes are most of a record's bytes (a report's stacks, its cause's callback chain)
/// and nest up to nine levels. Built as generated messages and serialized by swift-protobuf, every
/// level was visited once to size it and again to write it, through its generic visitor: two
/// thirds of the shipper's CPU. Here each nested message is written after its tag and its length
/// is put in front of it once it is known (the bytes behind it move by the varint's few bytes), so
/// every value is visited once. The output is what swift-protobuf writes for the same messages:
/// fields in field-number order, oneof cases written even when they hold their default (they have
/// presence), an empty key left out (proto3). ShipEncodingTests decodes whole requests with the
/// generated code and compares them with the messages built from the mapping.
enum OTLPAttributeWriter {
    // common.proto: KeyValue.key = 1, .value = 2; AnyValue.string_value = 1, .bool_value = 2,
    // .int_value = 3, .double_value = 4, .array_value = 5, .kvlist_value = 6; ArrayValue.values = 1;
    // KeyValueList.values = 1. LogRecord.attributes = 6 (logs.proto).
    private static let lengthDelimited: UInt8 = 2, varint: UInt8 = 0, fixed64: UInt8 = 1

    /// Appends `attribute` as field `field` of the enclosing message (LogRecord.attributes: 6).
    static func append(_ attribute: OTLPKeyValue, asField field: UInt8, to out: inout [UInt8]) {
        nested(field, &out) { keyValue(attribute, &$0) }
    }

    private static func keyValue(_ attribute: OTLPKeyValue, _ out: inout [UInt8]) {
        if !attribute.key.isEmpty { string(1, attribute.key, &out) }
        nested(2, &out) { anyValue(attribute.value, &$0) }
    }

    private static func anyValue(_ value: OTLPAnyValue, _ out: inout [UInt8]) {
        switch value {
        case .string(let text):
            string(1, text, &out)
        case .bool(let flag):
            out.append(tag(2, varint))
            out.append(flag ? 1 : 0)
        case .int(let number):
            out.append(tag(3, varint))
            appendVarint(UInt64(bitPattern: number), to: &out)
        case .double(let number):
            out.append(tag(4, fixed64))
            withUnsafeBytes(of: number.bitPattern.littleEndian) { out.append(contentsOf: $0) }
        case .array(let values):
            nested(5, &out) { list in
                for element in values { nested(1, &list) { anyValue(element, &$0) } }
            }
        case .keyValues(let values):
            nested(6, &out) { list in
                for element in values { nested(1, &list) { keyValue(element, &$0) } }
            }
        }
    }

    private static func tag(_ field: UInt8, _ wireType: UInt8) -> UInt8 { field << 3 | wireType }

    private static func string(_ field: UInt8, _ text: String, _ out: inout [UInt8]) {
        out.append(tag(field, lengthDelimited))
        var text = text
        text.withUTF8 { bytes in
            appendVarint(UInt64(bytes.count), to: &out)
            out.append(contentsOf: bytes)
        }
    }

    /// A length-delimited field: its tag, then its length (known once `body` has written it), then
    /// the bytes `body` wrote.
    private static func nested(_ field: UInt8, _ out: inout [UInt8], _ body: (inout [UInt8]) -> Void) {
        out.append(tag(field, lengthDelimited))
        let start = out.count
        body(&out)
        let length = UInt64(out.count - start)
        if length < 0x80 {
            out.insert(UInt8(length), at: start)
            return
        }
        var prefix: [UInt8] = []
        appendVarint(length, to: &prefix)
        out.insert(contentsOf: prefix, at: start)
    }

    /// A varint (the request assembly's lengths use it too: ``OTLPBodyEncoder``).
    static func appendVarint<Bytes: RangeReplaceableCollection<UInt8>>(_ value: UInt64, to out: inout Bytes) {
        var rest = value
        while rest >= 0x80 {
            out.append(UInt8(rest & 0x7f) | 0x80)
            rest >>= 7
        }
        out.append(UInt8(rest))
    }
}
