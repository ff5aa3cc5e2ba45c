import Testing
import OpenCoreDataTestSupport

/// The doc-example check compares real text: a missing marker or a different line is reported.
@Suite struct DocExampleTests {
    @Test func aMissingExampleIsReported() {
        let report = DocExample.mismatch(doc: "object-graph.md", name: "no-such-example")
        #expect(report?.contains("no ```swift block") == true)
    }

    @Test func anUnreadableDocIsReported() {
        #expect(DocExample.mismatch(doc: "no-such-doc.md", name: "x")?.hasPrefix("cannot read") == true)
    }
}
