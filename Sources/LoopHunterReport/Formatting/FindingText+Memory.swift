/// Wording of a finding's memory side (reports of schema 1.2 with the alloc hook family on), shared
/// by every format. Byte counts go through ``ByteCount``. Nothing here escapes.
extension FindingText {
    /// The memory facts as labelled rows, in the order every format lists them (after the layout
    /// history); empty when the finding's reports carry no allocation data.
    ///
    /// - `alloc`: bytes allocated per iteration of the history, as a sparkline (unless
    ///   `sparkline` is false: the HTML format plots the history instead);
    /// - `memory`: what the thread allocated and freed in the iteration of the report, and the
    ///   process's live heap then;
    /// - `layout`: what the layouts of the report's object allocated since the process started;
    /// - `growth`: a heap growth's run, from where to where;
    /// - `top`: the objects whose layouts allocated most since the process started.
    static func memoryRows(_ f: Finding, sparkline: Bool = true) -> [(label: String, value: String)] {
        var rows: [(label: String, value: String)] = []
        if sparkline, let history = allocationHistory(f) { rows.append(("alloc", history)) }
        guard let alloc = f.alloc else { return rows }
        rows.append(("memory", iterationMemory(f, alloc)))
        if let object = alloc.object { rows.append(("layout", objectAllocation(f, object))) }
        if let growth = alloc.growth { rows.append(("growth", heapGrowth(f, growth, liveBytes: alloc.liveBytes))) }
        if !alloc.topAllocators.isEmpty { rows.append(("top", topAllocators(alloc.topAllocators))) }
        return rows
    }

    /// `bytes allocated in the last 32 iterations: ▁▁█ (max 1.0 MiB)`, or nil when the history
    /// has no allocation counts.
    static func allocationHistory(_ f: Finding) -> String? {
        guard f.history.contains(where: { $0.allocBytes != nil }) else { return nil }
        let bytes = f.history.map { $0.allocBytes ?? 0 }
        return "bytes allocated in the last \(bytes.count) \(plural(f.historyUnit, bytes.count)): "
            + sparkline(bytes) + " (max \(ByteCount(bytes.max() ?? 0)))"
    }

    /// `iteration 1: 64.0 MiB allocated in 1366 calls, 0 B freed; live heap 64.0 MiB`: the
    /// thread's allocations in the iteration of the report, up to the report.
    static func iterationMemory(_ f: Finding, _ alloc: ReportAlloc) -> String {
        let when = f.history.last.map { "\(f.historyUnit) \($0.iteration)" } ?? "the \(f.historyUnit) of the report"
        return "\(when): \(ByteCount(alloc.iterationBytes)) allocated in \(count(alloc.iterationCalls, "call")), "
            + "\(ByteCount(alloc.iterationFreedBytes)) freed; live heap \(ByteCount(alloc.liveBytes))"
    }

    /// `the layout of ListView 'list' allocated 64.0 MiB in 1 pass (1366 allocations) so far`
    static func objectAllocation(_ f: Finding, _ object: ObjectAllocation) -> String {
        "the layout of \(f.object.label) allocated \(ByteCount(object.bytes)) in \(count(object.layouts, "pass", "passes")) "
            + "(\(count(object.calls, "allocation"))) so far"
    }

    /// `the live heap grew from 648 B to 64.3 MiB over 64 iterations`
    static func heapGrowth(_ f: Finding, _ growth: HeapGrowth, liveBytes: UInt64) -> String {
        "the live heap grew from \(ByteCount(growth.startLiveBytes)) to \(ByteCount(liveBytes)) "
            + "over \(count(growth.iterations, f.historyUnit))"
    }

    /// `ListView (tk_view_layout) 64.2 MiB in 64 allocations over 64 layouts; ...`: the first
    /// three, and how many more there are.
    static func topAllocators(_ allocators: [TopAllocator]) -> String {
        var text = allocators.prefix(3).map { top in
            "\(ObjectRef(type: top.type ?? "?", name: top.name, path: "").label) (\(top.hook ?? "?")) "
                + "\(ByteCount(top.bytes)) in \(count(top.calls, "allocation")) over \(count(top.layouts, "layout"))"
        }.joined(separator: "; ")
        if allocators.count > 3 { text += " (+\(allocators.count - 3) more)" }
        return text
    }

    /// `1 allocation`, `2 allocations`
    static func count(_ n: UInt64, _ singular: String, _ plural: String? = nil) -> String {
        "\(n) " + (n == 1 ? singular : plural ?? singular + "s")
    }

    /// `iteration`, `iterations`
    private static func plural(_ word: String, _ n: Int) -> String { n == 1 ? word : word + "s" }

    /// `101 / 100`, or for counts in bytes `64.0 MiB / 64 MiB`: a finding's count and threshold
    /// for the formats' tables.
    static func countAndThreshold(_ f: Finding) -> String {
        f.countUnit.hasPrefix("bytes")
            ? "\(ByteCount(f.count)) / \(ByteCount(f.threshold))"
            : "\(f.count) / \(f.threshold)"
    }
}
