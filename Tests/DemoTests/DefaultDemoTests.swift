import Foundation
import Testing

/// `opencoredata-demo` with no arguments: the nested-list demo on the default store.
@Suite struct DefaultDemoTests {
    @Test func noArgumentsRunsTheNestedListDemoOnTheDefaultStore() throws {
        let cli = try DemoCLI()
        let first = try cli.run([], addsStore: false)
        #expect(first.status == 0, "\(first)")
        #expect(first.output.hasPrefix("Lists\n1. "), "\(first)")
        let store = cli.dataHome.appendingPathComponent("opencoredata-demo/Demo.sqlite")
        #expect(FileManager.default.fileExists(atPath: store.path))
        // The second run finds the samples and adds none: the same tree.
        let second = try cli.run([], addsStore: false)
        #expect(second.output == first.output)
        // The commands use that default store too.
        let list = try cli.run(["lists", "ls", "--json"], addsStore: false).json(DemoJSON.List.self)
        #expect(first.output.contains("1. \(try #require(list.items.first?.title))"))
    }
}
