import Foundation
import Testing

/// `opencoredata-demo lists …` run as a child process: text, JSON, paths and references.
@Suite struct ListsCommandTests {
    @Test func addListRenameMoveAndDelete() throws {
        let cli = try DemoCLI()
        for title in ["Groceries", "Work", "Books"] {
            let added = try cli.run(["lists", "add", title])
            #expect(added.status == 0, "\(added)")
        }
        let milk = try cli.run(["lists", "add", "Milk", "--in", "1", "--json"]).json(DemoJSON.Action.self)
        #expect(milk.action == "Add Item “Milk”")
        #expect(milk.item?.path == "1.1")
        try cli.run(["lists", "add", "Bread", "--in", "1"])
        try cli.run(["lists", "add", "Eggs", "--in", "Groceries"], expectingStatus: 65)

        // Text: the breadcrumb, then the numbered items with their sub-item counts.
        let text = try cli.run(["lists", "ls"])
        #expect(text.status == 0)
        #expect(text.output == "Lists\n1. Groceries (2)\n2. Work\n3. Books\n", "\(text)")
        let sub = try cli.run(["lists", "ls", "1"])
        #expect(sub.output == "Lists › Groceries\n1. Milk\n2. Bread\n", "\(sub)")

        // JSON: the same list, with references that address items too.
        let list = try cli.run(["lists", "ls", "1", "--json"]).json(DemoJSON.List.self)
        #expect(list.breadcrumb.map(\.title) == ["Lists", "Groceries"])
        #expect(list.items.map(\.title) == ["Milk", "Bread"])
        #expect(list.items.map(\.order) == [0, 1])
        #expect(list.items.map(\.path) == ["1.1", "1.2"])
        let bread = try #require(list.items.last)
        let byReference = try cli.run(["lists", "rename", "@\(bread.reference)", "Rye bread", "--json"]).json(DemoJSON.Action.self)
        #expect(byReference.action.hasPrefix("Rename"))
        #expect(byReference.item?.reference == bread.reference)

        // Reorder within the list, then move into another list: both lists stay contiguous.
        try cli.run(["lists", "mv", "1.2", "--position", "1"])
        try cli.run(["lists", "mv", "3", "--in", "2"])
        try cli.run(["lists", "mv", "1.1", "--in", "2", "--position", "1"])
        let tree = try cli.run(["lists", "ls", "--tree"])
        #expect(tree.output == """
            Lists
            1. Groceries (1)
               1.1. Milk
            2. Work (2)
               2.1. Rye bread
               2.2. Books

            """, "\(tree)")
        let treeJSON = try cli.run(["lists", "ls", "--tree", "--json"]).json(DemoJSON.TreeNode.self)
        #expect(treeJSON.descendants.map(\.path) == ["1", "1.1", "2", "2.1", "2.2"])

        // Back up to the root list, and a list addressed by reference.
        try cli.run(["lists", "mv", "2.2", "--in", "root", "--position", "1"], expectingStatus: 0)
        let work = try #require(try cli.run(["lists", "ls", "--json"]).json(DemoJSON.List.self).items.first { $0.title == "Work" })
        #expect(try cli.run(["lists", "ls", "@\(work.reference)"]).output == "Lists › Work\n1. Rye bread\n")
        try cli.run(["lists", "mv", "1", "--in", "@\(work.reference)"], expectingStatus: 0)

        // Delete with cascade: the later items move up.
        try cli.run(["lists", "rm", "1"])
        let after = try cli.run(["lists", "ls", "--json"]).json(DemoJSON.List.self)
        #expect(after.items.map(\.title) == ["Work"])
        #expect(after.items.map(\.order) == [0])
        #expect(try cli.run(["lists", "ls", "--tree", "--json"]).json(DemoJSON.TreeNode.self).descendants.count == 3)
    }
}

extension DemoCLI {
    /// Runs and expects the exit status; returns the run for more checks.
    @discardableResult
    func run(_ arguments: [String], expectingStatus status: Int32) throws -> Run {
        let run = try run(arguments)
        #expect(run.status == status, "\(run)")
        return run
    }
}
