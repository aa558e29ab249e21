/// The cause section of a layout finding (``Finding/cause``), worded once for every format: what
/// kind of request closed the loop, the code that made it, the callbacks that carried it from
/// layout, and the stacks to read.
extension FindingText {
    /// `in-layout: gtk_widget_queue_resize on LhLabel 'status', made while layout ran`.
    static func causeLine(_ c: FindingCause) -> String {
        let widget = ObjectRef(type: c.widget.type ?? "?", name: c.widget.name, path: c.widget.path ?? "").label
        return "\(c.kind): \(c.entry ?? "a layout request") on \(widget), \(c.kindDescription)"
    }

    /// The code that made the request: `gtk_causes.c:88 in relabel_in_layout (gtk3-causes)`, or why
    /// none is named.
    static func requesterLine(_ c: FindingCause) -> String {
        location(c.requester) ?? "no frame of your code on the request's stack (the toolkit, or an interpreter, made it)"
    }

    /// One callback of a deferred cause's chain: `ping_pong_idle (gtk3-causes), added with g_idle_add
    /// while layout ran, at gtk_causes.c:120 in label_allocated (gtk3-causes)`.
    static func linkLine(_ l: FindingCauseLink, of cause: FindingCause) -> String {
        // A callback in no module is code made at run time: an interpreter's function (Python,
        // JavaScript) behind a libffi closure, which a native address cannot name.
        let callback = l.callback.map { $0.module == nil ? "a callback made at run time (an interpreter's function behind a libffi closure)"
                                                         : "\($0.displayName) (\($0.moduleName ?? "?"))" } ?? "a callback"
        let when = switch l.kind {
        case "in-layout": "while layout ran"
        case "geometry-change": "while an item's geometry changed (its onWidthChanged or similar handler ran)"
        default: cause.beganInGeometryChange ? "by a callback an item's geometry change had started" : "by a callback layout had added"
        }
        let adder = location(l.adder).map { ", at \($0)" } ?? ""
        return "\(callback), added with \(l.addedWith ?? "?") \(when)\(adder)"
    }

    /// The rows of the cause: `cause`, `by` (the requester, when it is not the finding's `where`
    /// already, or when no app code made the request), one `via` per callback of the chain, and a
    /// note when older links were lost. Empty without a cause.
    static func causeRows(_ f: Finding) -> [(label: String, value: String)] {
        guard let c = f.cause else { return [] }
        var rows: [(label: String, value: String)] = [("cause", causeLine(c))]
        if c.requester == nil || c.requester != f.appFrame { rows.append(("by", requesterLine(c))) }
        rows += c.addedBy.map { ("via", linkLine($0, of: c)) }
        if c.chainTruncated { rows.append(("via", "... older callbacks of the chain were no longer known")) }
        return rows
    }

    /// The cause's stacks to list after the finding's own: the request's (only when it is not the
    /// finding's stack already), then where each callback of the chain was added, nearest first.
    static func causeStacks(_ f: Finding) -> [(label: String, title: String, stack: [SymbolizedFrame])] {
        guard let c = f.cause else { return [] }
        var stacks: [(label: String, title: String, stack: [SymbolizedFrame])] = []
        if c.requestStack != f.stack, !c.requestStack.isEmpty {
            stacks.append(("request", "the request that re-queued layout", c.requestStack))
        }
        if !c.requestScript.isEmpty {
            stacks.append(("script", "the \(c.scriptLanguage ?? "script") functions running when layout was re-requested", c.requestScript))
        }
        for link in c.addedBy where !link.stack.isEmpty {
            let callback = link.callback.flatMap { $0.module == nil ? nil : $0.displayName } ?? "the callback"
            stacks.append(("added", "where \(callback) was added with \(link.addedWith ?? "?")", link.stack))
        }
        return stacks
    }
}
