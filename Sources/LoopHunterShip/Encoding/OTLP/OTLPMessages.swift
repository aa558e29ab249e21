import SwiftProtobuf

/// The mapping's values (``OTLPLogRecord``, ``OTLPResource``, ``OTLPScope``) as the protobuf
/// messages generated from the official OTLP .proto files (Generated/). Both encodings are
/// written from these messages, so the protobuf and the JSON body carry the same fields by
/// construction; this is a change of representation, never of content.
enum OTLPMessages {
    /// `attributes: false` leaves them out (``OTLPBodyEncoder`` writes them one by one).
    static func record(_ record: OTLPLogRecord, attributes: Bool = true) -> Opentelemetry_Proto_Logs_V1_LogRecord {
        var message = Opentelemetry_Proto_Logs_V1_LogRecord()
        message.timeUnixNano = record.timeUnixNano
        message.observedTimeUnixNano = record.observedTimeUnixNano
        message.severityNumber = Opentelemetry_Proto_Logs_V1_SeverityNumber(rawValue: record.severityNumber) ?? .unspecified
        message.severityText = record.severityText
        message.body = anyValue(record.body)
        if attributes { message.attributes = record.attributes.map(keyValue) }
        message.eventName = record.eventName
        return message
    }

    static func resource(_ resource: OTLPResource) -> Opentelemetry_Proto_Resource_V1_Resource {
        var message = Opentelemetry_Proto_Resource_V1_Resource()
        message.attributes = resource.attributes.map(keyValue)
        return message
    }

    static func scope(_ scope: OTLPScope) -> Opentelemetry_Proto_Common_V1_InstrumentationScope {
        var message = Opentelemetry_Proto_Common_V1_InstrumentationScope()
        message.name = scope.name
        message.version = scope.version
        return message
    }

    static func keyValue(_ keyValue: OTLPKeyValue) -> Opentelemetry_Proto_Common_V1_KeyValue {
        var message = Opentelemetry_Proto_Common_V1_KeyValue()
        message.key = keyValue.key
        message.value = anyValue(keyValue.value)
        return message
    }

    static func anyValue(_ value: OTLPAnyValue) -> Opentelemetry_Proto_Common_V1_AnyValue {
        var message = Opentelemetry_Proto_Common_V1_AnyValue()
        switch value {
        case .string(let text): message.value = .stringValue(text)
        case .int(let number): message.value = .intValue(number)
        case .bool(let flag): message.value = .boolValue(flag)
        case .double(let number): message.value = .doubleValue(number)
        case .array(let values):
            var array = Opentelemetry_Proto_Common_V1_ArrayValue()
            array.values = values.map(anyValue)
            message.value = .arrayValue(array)
        case .keyValues(let values):
            var list = Opentelemetry_Proto_Common_V1_KeyValueList()
            list.values = values.map(keyValue)
            message.value = .kvlistValue(list)
        }
        return message
    }
}
