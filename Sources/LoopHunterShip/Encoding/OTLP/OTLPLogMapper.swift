import Foundation
import LoopHunterReport

/// Maps a report to an OTLP LogRecord and its process to an OTLP Resource. The attribute names
/// follow OpenTelemetry's semantic conventions where one exists (`log.record.uid`, `process.*`,
/// `thread.*`, `service.name`, `host.name`) and are under `loophunter.` otherwise; the full table
/// is in docs/shipping.md.
public struct OTLPLogMapper: Sendable {
    /// `host.name`: the machine that ships (the one that ran the program, for `loophunter run`).
    public let hostName: String

    public init(hostName: String) {
        self.hostName = hostName
    }

    /// The machine's name as the kernel knows it.
    public static func localHostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Reports of one process share a Resource; this is its grouping key.
    public static func resourceKey(_ report: Report) -> String {
        "\(report.process.pid)\u{0}\(report.process.executable)"
    }

    public func resource(for report: Report) -> OTLPResource {
        let executable = report.process.executable
        let name = Self.fileName(executable)
        return OTLPResource(attributes: [
            OTLPKeyValue("service.name", .string(name.isEmpty ? "unknown_service" : name)),
            OTLPKeyValue("host.name", .string(hostName)),
            OTLPKeyValue("process.pid", .int(Int64(report.process.pid))),
            OTLPKeyValue("process.executable.name", .string(name)),
            OTLPKeyValue("process.executable.path", .string(executable)),
        ])
    }

    /// `observedAt`: nanoseconds since the epoch when the shipper read the report.
    public func record(for report: Report, observedAt: UInt64) -> OTLPLogRecord {
        let severity = OTLPSeverity.of(report)
        return OTLPLogRecord(
            timeUnixNano: report.timeNs,
            observedTimeUnixNano: observedAt,
            severityNumber: severity.number,
            severityText: severity.text,
            body: .string(Self.summaryLine(report)),
            attributes: attributes(of: report),
            eventName: "loophunter.\(report.kind.rawValue)")
    }

    /// The last component of a path (`/usr/bin/gedit` → `gedit`), trailing slashes ignored. (Not
    /// through Foundation's URL: this runs twice for every record shipped.)
    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? ""
    }

    /// The body: one line a person can read in a log view.
    /// `layout-storm: StatusLabel 'status' 101 layouts in one iteration (threshold 100) at
    /// TkWindow 'main' > Toolbar 'toolbar' > StatusLabel 'status' in toykit-demo[4101]`
    public static func summaryLine(_ report: Report) -> String {
        let program = "\(fileName(report.process.executable))[\(report.process.pid)]"
        let line: String
        if let warning = report.warning {
            let domain = warning.domain.map { "\($0)-" } ?? ""
            line = "\(report.kind.rawValue): \(domain)\(warning.level.uppercased()): \(warning.message) in \(program)"
        } else {
            let object = report.object.type + (report.object.name.map { " '\($0)'" } ?? "")
            line = "\(report.kind.rawValue): \(object) \(report.count) \(report.countUnit) (threshold \(report.threshold))"
                + " at \(report.object.path) in \(program)"
        }
        return String(line.map { $0.isNewline || $0 == "\t" ? " " : $0 })
    }

    func attributes(of report: Report) -> [OTLPKeyValue] {
        var attributes: [OTLPKeyValue] = [
            OTLPKeyValue("log.record.uid", .string(report.id)),
            OTLPKeyValue("loophunter.kind", .string(report.kind.rawValue)),
            OTLPKeyValue("loophunter.fingerprint", .string(report.fingerprint)),
            OTLPKeyValue("loophunter.schema_version", .string(report.version)),
            OTLPKeyValue("loophunter.hook", .string(report.hook.name)),
            OTLPKeyValue("loophunter.hook.family", .string(report.hook.family)),
        ]
        if let toolkit = report.hook.toolkit { attributes.append(OTLPKeyValue("loophunter.toolkit", .string(toolkit))) }
        attributes.append(OTLPKeyValue("loophunter.object.type", .string(report.object.type)))
        if let name = report.object.name { attributes.append(OTLPKeyValue("loophunter.object.name", .string(name))) }
        attributes += [
            OTLPKeyValue("loophunter.object.path", .string(report.object.path)),
            OTLPKeyValue("loophunter.object.address", .string(report.object.address)),
            OTLPKeyValue("loophunter.count", .int(Int64(clamping: report.count))),
            OTLPKeyValue("loophunter.threshold", .int(Int64(clamping: report.threshold))),
            OTLPKeyValue("loophunter.count_unit", .string(report.countUnit)),
            OTLPKeyValue("process.pid", .int(Int64(report.process.pid))),
            OTLPKeyValue("process.parent_pid", .int(Int64(report.process.ppid))),
            OTLPKeyValue("process.executable.path", .string(report.process.executable)),
            OTLPKeyValue("thread.id", .int(Int64(report.thread.tid))),
            OTLPKeyValue("thread.name", .string(report.thread.name)),
            OTLPKeyValue("loophunter.thread.iteration", .int(Int64(clamping: report.thread.iteration))),
            OTLPKeyValue("loophunter.thread.layout_iteration", .int(Int64(clamping: report.thread.layoutIteration))),
        ]
        if let frame = report.thread.frame, frame > 0 {
            attributes.append(OTLPKeyValue("loophunter.thread.frame", .int(Int64(clamping: frame))))
        }
        if let warning = report.warning {
            if let domain = warning.domain { attributes.append(OTLPKeyValue("loophunter.warning.domain", .string(domain))) }
            attributes.append(OTLPKeyValue("loophunter.warning.level", .string(warning.level)))
            attributes.append(OTLPKeyValue("loophunter.warning.message", .string(warning.message)))
            if let format = warning.format { attributes.append(OTLPKeyValue("loophunter.warning.format", .string(format))) }
        }
        if let streak = report.streak {
            attributes.append(OTLPKeyValue("loophunter.streak.last_iteration_layouts", .int(Int64(clamping: streak.lastIterationLayouts))))
            attributes.append(OTLPKeyValue("loophunter.streak.gap_ms", .int(Int64(clamping: streak.gapMs))))
        }
        if !report.loopMembers.isEmpty {
            attributes.append(OTLPKeyValue("loophunter.loop_members", .array(report.loopMembers.map { member in
                var fields: [OTLPKeyValue] = [OTLPKeyValue("type", .string(member.type))]
                if let name = member.name { fields.append(OTLPKeyValue("name", .string(name))) }
                fields += [
                    OTLPKeyValue("address", .string(member.address)),
                    OTLPKeyValue("hook", .string(member.hook)),
                    OTLPKeyValue("count", .int(Int64(clamping: member.count))),
                ]
                return .keyValues(fields)
            })))
        }
        attributes.append(OTLPKeyValue("loophunter.frames", Self.frames(report.frames)))
        attributes.append(OTLPKeyValue("loophunter.frames_truncated", .bool(report.framesTruncated)))
        if let cause = report.cause { attributes += Self.causeAttributes(cause) }
        return attributes
    }

    /// A stack as an array of maps, innermost first.
    static func frames(_ frames: [Frame]) -> OTLPAnyValue {
        .array(frames.map(frame))
    }

    static func frame(_ frame: Frame) -> OTLPAnyValue {
        var fields: [OTLPKeyValue] = [OTLPKeyValue("pc", .string(frame.pc))]
        if let module = frame.module { fields.append(OTLPKeyValue("module", .string(module))) }
        if let buildId = frame.buildId { fields.append(OTLPKeyValue("build_id", .string(buildId))) }
        if let offset = frame.offset { fields.append(OTLPKeyValue("offset", .string(offset))) }
        if let symbol = frame.symbol { fields.append(OTLPKeyValue("symbol", .string(symbol))) }
        if let symbolOffset = frame.symbolOffset {
            fields.append(OTLPKeyValue("symbol_offset", .int(Int64(clamping: symbolOffset))))
        }
        return .keyValues(fields)
    }

    /// The report's `cause` (schema 1.6; `script` 1.7): kind, entry point, the widget requested, the
    /// request's stack and its Python or JavaScript functions, and for a deferred cause the
    /// callbacks that carried it, each with where it was added.
    static func causeAttributes(_ cause: ReportCause) -> [OTLPKeyValue] {
        var attributes = [OTLPKeyValue("loophunter.cause.kind", .string(cause.kind))]
        if let entry = cause.entry { attributes.append(OTLPKeyValue("loophunter.cause.entry", .string(entry))) }
        var widget = [OTLPKeyValue("address", .string(cause.widget.address))]
        if let type = cause.widget.type { widget.append(OTLPKeyValue("type", .string(type))) }
        if let name = cause.widget.name { widget.append(OTLPKeyValue("name", .string(name))) }
        if let path = cause.widget.path { widget.append(OTLPKeyValue("path", .string(path))) }
        attributes.append(OTLPKeyValue("loophunter.cause.widget", .keyValues(widget)))
        attributes.append(OTLPKeyValue("loophunter.cause.request_frames", frames(cause.requestStack)))
        if let script = cause.requestScript {
            attributes.append(OTLPKeyValue("loophunter.cause.script", .keyValues([
                OTLPKeyValue("language", .string(script.language)),
                OTLPKeyValue("frames", .array(script.frames.map { frame in
                    var fields = [OTLPKeyValue("function", .string(frame.function)), OTLPKeyValue("file", .string(frame.file))]
                    if let line = frame.line { fields.append(OTLPKeyValue("line", .int(Int64(line)))) }
                    return .keyValues(fields)
                })),
            ])))
        }
        attributes.append(OTLPKeyValue("loophunter.cause.added_by", .array(cause.addedBy.map { link in
            var fields = [OTLPKeyValue("kind", .string(link.kind))]
            if let addedWith = link.addedWith { fields.append(OTLPKeyValue("added_with", .string(addedWith))) }
            if let callback = link.callback { fields.append(OTLPKeyValue("callback", frame(callback))) }
            fields.append(OTLPKeyValue("frames", frames(link.stack)))
            return .keyValues(fields)
        })))
        attributes.append(OTLPKeyValue("loophunter.cause.chain_truncated", .bool(cause.chainTruncated ?? false)))
        if let beganIn = cause.beganIn { attributes.append(OTLPKeyValue("loophunter.cause.began_in", .string(beganIn))) }
        return attributes
    }
}
