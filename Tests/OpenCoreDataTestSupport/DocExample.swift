import Foundation

/// Keeps a doc's example and the test that runs it the same code.
///
/// A doc under `docs/` shows its runnable example in a ```` ```swift ```` block whose first
/// line is `// example: NAME`; the test that runs it holds the same lines between
/// `// example: NAME` and `// end example` in its own source. `DocExample.mismatch` compares
/// the two (lines trimmed, blank lines ignored), so neither can change without the other.
package enum DocExample {
    /// The repository's root folder, found from this file's path.
    package static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // OpenCoreDataTestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// nil when the example `name` in `docs/DOC` equals the lines between its markers in
    /// `testFile` (pass `#filePath`); otherwise what differs, for the test to report.
    package static func mismatch(doc: String, name: String, testFile: String = #filePath) -> String? {
        let docURL = repositoryRoot.appendingPathComponent("docs").appendingPathComponent(doc)
        guard let docText = try? String(contentsOf: docURL, encoding: .utf8) else { return "cannot read \(docURL.path)" }
        guard let testText = try? String(contentsOfFile: testFile, encoding: .utf8) else { return "cannot read \(testFile)" }
        guard let fromDoc = block(named: name, in: docText, inFence: true) else { return "no ```swift block starting with `// example: \(name)` in docs/\(doc)" }
        guard let fromTest = block(named: name, in: testText, inFence: false) else { return "no `// example: \(name)` … `// end example` in \(testFile)" }
        guard fromDoc != fromTest else { return nil }
        let index = zip(fromDoc, fromTest).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(fromDoc.count, fromTest.count)
        let docLine = index < fromDoc.count ? fromDoc[index] : "(end)"
        let testLine = index < fromTest.count ? fromTest[index] : "(end)"
        return "docs/\(doc) example \(name) differs from its test at line \(index + 1): doc `\(docLine)`, test `\(testLine)`"
    }

    /// The trimmed, non-blank lines after `// example: NAME`, up to the fence's end (a
    /// doc) or `// end example` (a test).
    private static func block(named name: String, in text: String, inFence: Bool) -> [String]? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let start = lines.firstIndex(of: "// example: \(name)") else { return nil }
        var body: [String] = []
        for line in lines[(start + 1)...] {
            if inFence ? line.hasPrefix("```") : line == "// end example" { return body }
            if !line.isEmpty { body.append(line) }
        }
        return nil
    }
}
