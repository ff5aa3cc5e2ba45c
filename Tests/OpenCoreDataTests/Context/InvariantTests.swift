import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// A random sequence of inserts, re-parentings, cascading deletes and saves on the nested
/// list (seeded; the seed is printed), then an invariant walk of what the store holds.
@Suite struct InvariantTests {
    /// What each live item's parent (by title) and order are.
    typealias Graph = [String: Node]
    struct Node: Equatable, CustomStringConvertible {
        var parent: String?
        var order: Int64
        var description: String { "\(parent ?? "-")#\(order)" }
    }

    /// Runs the operations on `kind`'s store, keeping `expected` in step, and saves.
    private func run(_ kind: StoreKind, seed: UInt64, operations: Int) throws -> (TestStack, expected: Graph) {
        var random = SeededRandom(seed: seed)
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        var expected: Graph = [:]
        var live: [String: ManagedObject] = [:]
        var counter = 0

        func subtree(_ root: String) -> Set<String> {
            var result: Set<String> = [root]
            var grew = true
            while grew {
                let more = expected.filter { $0.value.parent.map(result.contains) == true && !result.contains($0.key) }.map(\.key)
                grew = !more.isEmpty
                result.formUnion(more)
            }
            return result
        }
        /// A live item outside `excluded`, or nil (for a root) sometimes or when there is none.
        func randomParent(excluding excluded: Set<String>) -> String? {
            let candidates = live.keys.filter { !excluded.contains($0) }.sorted()
            return candidates.isEmpty || random.chance(0.35) ? nil : random.pick(candidates)
        }

        try stack.context.performAndWait {
            for _ in 0..<operations {
                let titles = live.keys.sorted()
                let roll = Double.random(in: 0..<1, using: &random)
                if titles.isEmpty || roll < 0.45 {
                    counter += 1
                    let title = "i\(counter)"
                    let parent = randomParent(excluding: [])
                    let order = Int64.random(in: 0..<100, using: &random)
                    live[title] = stack.insert("Item", ["title": title, "order": order, "parent": parent.map { live[$0]! }])
                    expected[title] = Node(parent: parent, order: order)
                } else if roll < 0.62 {                                   // re-parent from the child's side
                    let title = random.pick(titles)
                    let parent = randomParent(excluding: subtree(title))
                    live[title]!.setValue(parent.map { live[$0]! }, forKey: "parent")
                    expected[title]!.parent = parent
                } else if roll < 0.72 {                                   // re-parent from the parent's side
                    let title = random.pick(titles)
                    guard let parent = randomParent(excluding: subtree(title)) else { continue }
                    live[parent]!.mutableSetValue(forKey: "children").add(live[title]!)
                    expected[title]!.parent = parent
                } else if roll < 0.77 {
                    let title = random.pick(titles)
                    let order = Int64.random(in: 0..<100, using: &random)
                    live[title]!.setValue(order, forKey: "order")
                    expected[title]!.order = order
                } else if roll < 0.84 {                                   // delete, cascading to the subtree
                    let title = random.pick(titles)
                    stack.context.delete(live[title]!)
                    // Sometimes a child is moved out before the delete rules run: it survives.
                    let children = expected.filter { $0.value.parent == title }.map(\.key).sorted()
                    if !children.isEmpty && random.chance(0.3) {
                        let child = random.pick(children)
                        let parent = randomParent(excluding: subtree(title))
                        live[child]!.setValue(parent.map { live[$0]! }, forKey: "parent")
                        expected[child]!.parent = parent
                    }
                    for gone in subtree(title) {
                        expected[gone] = nil
                        live[gone] = nil
                    }
                } else {
                    #expect(InvariantChecker.check(stack.context) == [], "seed \(seed): before a save")
                    try stack.context.save()
                    if random.chance(0.3) {                               // forget everything: relationships reload from the store
                        stack.context.reset()
                        live = try Dictionary(uniqueKeysWithValues: stack.fetch("Item").map { ($0.value(forKey: "title") as! String, $0) })
                    }
                }
            }
            try stack.context.save()
            #expect(InvariantChecker.check(stack.context) == [], "seed \(seed): after the last save")
        }
        return (stack, expected)
    }

    /// Walks every stored item: parents and children agree, nothing dangles, no cycles.
    private func walk(_ context: ManagedObjectContext) throws -> Graph {
        try context.performAndWait {
            let items = try context.fetch(FetchRequest<ManagedObject>(entityName: "Item"))
            let all = Set(items)
            var graph: Graph = [:]
            for item in items {
                let title = try #require(item.value(forKey: "title") as? String)
                #expect(!item.isDeleted, "\(title) reads as deleted")
                let parent = item.value(forKey: "parent") as? ManagedObject
                if let parent {
                    #expect(all.contains(parent), "\(title)'s parent dangles")
                    #expect((parent.value(forKey: "children") as? Set<ManagedObject>)?.contains(item) == true, "\(title)'s parent does not list it")
                }
                for child in (item.value(forKey: "children") as? Set<ManagedObject>) ?? [] {
                    #expect(all.contains(child), "\(title) has a dangling child")
                    #expect((child.value(forKey: "parent") as? ManagedObject) === item, "\(title)'s child has another parent")
                }
                var ancestor = parent
                for _ in 0...items.count { ancestor = ancestor?.value(forKey: "parent") as? ManagedObject }
                #expect(ancestor == nil, "\(title) is in a cycle")
                graph[title] = Node(parent: parent?.value(forKey: "title") as? String, order: item.value(forKey: "order") as? Int64 ?? -1)
            }
            #expect(try context.count(for: FetchRequest<ManagedObject>(entityName: "Item")) == items.count)
            #expect(InvariantChecker.check(context) == [])
            return graph
        }
    }

    @Test func randomEditsKeepTheStoredGraphConsistent() throws {
        let seed = SeededRandom.fromEnvironment(for: "InvariantTests").seed
        let operations = 400
        let (sqlite, expected) = try run(.sqlite, seed: seed, operations: operations)
        let reopened = try sqlite.reopened()
        let stored = try walk(reopened.context)
        #expect(stored == expected, "seed \(seed): the SQLite store's graph differs from the expected one")

        let (memory, memoryExpected) = try run(.inMemory, seed: seed, operations: operations)
        #expect(memoryExpected == expected)
        let inMemory = try walk(memory.newContext())
        #expect(inMemory == stored, "seed \(seed): the in-memory store's graph differs from the SQLite store's")
        print("InvariantTests: \(stored.count) items, \(stored.values.filter { $0.parent == nil }.count) roots")
    }
}
