import Foundation
import Testing

/// The SARIF and JUnit outputs checked by real consumers (Tests/Validators: sarif-pydantic,
/// sarif-tools, junitparser, in a venv made once per test process).
package enum FormatValidators {
    package struct ValidatorFailure: Error, CustomStringConvertible {
        package let description: String
    }

    /// scripts/setup-validators.sh, run once per test process: the venv with sarif-pydantic,
    /// sarif-tools and junitparser.
    package static let validatorPython: Result<String, ValidatorFailure> = {
        let script = Native.root.appendingPathComponent("scripts/setup-validators.sh").path
        let run = HostRun.run([script], timeout: 600)
        guard run.status == 0 else {
            return .failure(ValidatorFailure(description: """
                scripts/setup-validators.sh failed (status \(run.status)); it needs python3 with venv and pip \
                (apt-get install -y python3 python3-venv) and PyPI:
                \(run.stdout)\(run.stderr)
                """))
        }
        return .success(Native.root.appendingPathComponent(".build/validators-venv/bin/python").path)
    }()

    package static func validate(sarif text: String, label: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try runValidator("validate_sarif.py", text, fileName: "\(label).sarif", arguments: [], sourceLocation: sourceLocation)
    }

    package static func validate(junit text: String, failures: Int, label: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try runValidator("validate_junit.py", text, fileName: "\(label).junit.xml", arguments: ["\(failures)"],
                         sourceLocation: sourceLocation)
    }

    private static func runValidator(_ script: String, _ text: String, fileName: String, arguments: [String],
                                     sourceLocation: SourceLocation) throws {
        let python = try validatorPython.get()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lh-validate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent(fileName)
        try text.write(to: file, atomically: true, encoding: .utf8)
        let validator = Native.root.appendingPathComponent("Tests/Validators/\(script)").path
        let run = HostRun.run([python, validator, file.path] + arguments, timeout: 300)
        #expect(run.status == 0, "\(script) \(fileName) failed (status \(run.status)):\n\(run.stdout)\(run.stderr)",
                sourceLocation: sourceLocation)
    }

    /// The `runs` of a SARIF log.
    package static func sarifRuns(_ sarif: String) throws -> [[String: Any]] {
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any])
        return try #require(log["runs"] as? [[String: Any]])
    }
}
