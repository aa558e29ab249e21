import Foundation

/// The rules of one or more suppression files (`--suppress FILE`), as sanitizers and valgrind have
/// them: findings they match leave the findings (and so the `--fail-on-breach` gate) but are still
/// listed, with the rule, in every output.
///
/// A file has one rule per line; blank lines and lines starting with `#` are skipped; a rule is one
/// or more `key:value` conditions separated by spaces, all of which must hold, and may end with a
/// `# reason`:
///
///     finding:3f9c0a1b2d4e5f60            # the splash screen's one-off relayout, issue #123
///     kind:layout-streak type:GtkLabel name:clock
///     function:update_status_*
public struct SuppressionList: Sendable, Equatable {
    public let rules: [SuppressionRule]

    public init(rules: [SuppressionRule]) { self.rules = rules }

    /// Reads the files in order. A file that cannot be read or a line that is not a rule is an
    /// error naming the file and line (nothing is suppressed by a rule the user mistyped).
    public static func load(_ paths: [String]) throws(SuppressionFileError) -> SuppressionList {
        var rules: [SuppressionRule] = []
        for path in paths {
            let text: String
            do {
                text = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw SuppressionFileError("--suppress \(path): cannot read it (\(Self.reason(error))); give a readable UTF-8 text file")
            }
            rules += try parse(text, file: path)
        }
        return SuppressionList(rules: rules)
    }

    public static func parse(_ text: String, file: String) throws(SuppressionFileError) -> [SuppressionRule] {
        var rules: [SuppressionRule] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Substring(rawLine)
            var reason: String?
            if let hash = line.firstIndex(of: "#") {
                let comment = line[line.index(after: hash)...].trimmingCharacters(in: .whitespaces)
                reason = comment.isEmpty ? nil : comment
                line = line[..<hash]
            }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            guard !words.isEmpty else { continue }
            let location = "\(file):\(index + 1)"
            var conditions: [SuppressionCondition] = []
            for word in words {
                guard let condition = SuppressionCondition(word) else {
                    throw SuppressionFileError("""
                        \(location): '\(word)' is not a condition; write key:value with a key among \
                        \(SuppressionCondition.keys.joined(separator: ", ")) (e.g. kind:layout-streak type:GtkLabel)
                        """)
                }
                if case .finding(let id) = condition, !(id.count == 16 && id.allSatisfy(\.isHexDigit)) {
                    throw SuppressionFileError("\(location): finding:\(id) is not a finding id (16 hex digits, as --print-suppressions writes)")
                }
                conditions.append(condition)
            }
            rules.append(SuppressionRule(conditions: conditions, location: location, reason: reason))
        }
        return rules
    }

    /// The analysis with every finding a rule matches moved to `suppressed` (the first matching
    /// rule is named), and the rules that matched nothing.
    public func apply(to analysis: Analysis) -> (analysis: Analysis, unused: [SuppressionRule]) {
        var kept: [Finding] = []
        var suppressed = analysis.suppressed ?? []
        var used = Set<Int>()
        for finding in analysis.findings {
            if let index = rules.firstIndex(where: { $0.matches(finding) }) {
                used.insert(index)
                suppressed.append(SuppressedFinding(finding: finding, rule: rules[index]))
            } else {
                kept.append(finding)
            }
        }
        var result = analysis
        result.findings = kept
        result.suppressed = suppressed
        let unused = rules.indices.filter { !used.contains($0) }.map { rules[$0] }
        return (result, unused)
    }

    /// One line per finding that suppresses exactly it, with its kind and title as the reason.
    public static func template(for analysis: Analysis) -> String {
        analysis.findings.map { finding in
            "finding:\(finding.id)  # \(finding.kind.rawValue): \(FindingText.oneLine(finding.title))\n"
        }.joined()
    }

    private static func reason(_ error: any Error) -> String {
        let cocoa = error as NSError
        if let underlying = cocoa.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
           let code = POSIXErrorCode(rawValue: Int32(underlying.code)) {
            return String(cString: strerror(code.rawValue))
        }
        return cocoa.localizedDescription
    }
}
