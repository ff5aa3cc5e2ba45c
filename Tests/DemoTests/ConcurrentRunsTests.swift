import Foundation
import OpenCoreDataTestSupport
import Testing

/// Several CLI processes on one store at once, as when the CLI runs beside the web server.
@Suite struct ConcurrentRunsTests {
    /// Processes started together on a new store: all succeed, one root is created, and
    /// the list's orders stay contiguous (each add counted its siblings right).
    @Test func processesAtOnceShareOneStore() throws {
        let cli = try DemoCLI()
        let titles = ["A", "B", "C", "D"]
        // Started before any waits: the first ones race to create the root.
        let children = try titles.map { try cli.start(["lists", "add", $0]) }
        for (title, child) in zip(titles, children) {
            let (_, killed) = child.finish(timeout: 30)
            #expect(!killed && child.exitStatus == 0, "lists add \(title): \(child.exitStatus) \(child.standardError)")
        }
        let tree = try cli.run(["lists", "ls", "--tree", "--json"]).json(DemoJSON.TreeNode.self)
        #expect(tree.children.map(\.title).sorted() == titles)
        #expect(tree.children.map(\.path) == ["1", "2", "3", "4"])
        let list = try cli.run(["lists", "ls", "--json"]).json(DemoJSON.List.self)
        #expect(list.items.map(\.order) == [0, 1, 2, 3])
        #expect(list.breadcrumb.count == 1)
    }
}
