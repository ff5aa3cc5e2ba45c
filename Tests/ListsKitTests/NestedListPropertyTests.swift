import EditingSession
import OpenCoreData
import OpenCoreDataTestSupport
import Testing
@testable import ListsKit

/// Random action sequences (seeded: `OCD_SEED` replays one) against a plain tree of
/// titles: after every step the session, the store and the tree agree and the invariants
/// hold; undoing everything gives the empty list back, redoing everything the final one.
@Suite struct NestedListPropertyTests {
    /// The expected tree: titles and references, children in list order.
    final class Node {
        var title: String
        let reference: Reference<Item>
        var children: [Node] = []
        weak var parent: Node?
        init(_ title: String, _ reference: Reference<Item>, parent: Node?) {
            self.title = title
            self.reference = reference
            self.parent = parent
        }
        var outline: String {
            children.map { $0.children.isEmpty ? $0.title : "\($0.title)[\($0.outline)]" }.joined(separator: " ")
        }
        var all: [Node] { [self] + children.flatMap(\.all) }
        func contains(_ other: Node) -> Bool { other === self || children.contains { $0.contains(other) } }
    }

    @Test(arguments: StoreKind.allCases)
    func randomActionsKeepTheInvariants(kind: StoreKind) throws {
        var random = SeededRandom.fromEnvironment(for: "NestedListPropertyTests \(kind)")
        let fixture = try ListsFixture(kind: kind)
        let lists = fixture.lists
        let tree = Node("Lists", fixture.root, parent: nil)
        var names: [String] = []
        for step in 0 ..< 40 {
            let nodes = tree.all, item = random.pick(nodes), other = random.pick(nodes)
            let title = "t\(step)"
            let description: String
            switch Int.random(in: 0 ..< 10, using: &random) {
            case 0 ..< 4:
                description = "add \(title) to \(item.title)"
                let row = try lists.add(title, to: item.reference)
                item.children.append(Node(title, row.reference, parent: item))
                names.append("Add Item “\(title)”")
            case 4:
                description = "rename \(item.title) to \(title)"
                try lists.rename(item.reference, to: title)
                names.append("Rename “\(item.title)”")
                item.title = title
            case 5:
                description = "delete \(item.title)"
                guard let parent = item.parent else {
                    #expect(throws: ListsError.rootIsFixed) { try lists.delete(item.reference) }
                    break
                }
                try lists.delete(item.reference)
                parent.children.removeAll { $0 === item }
                names.append("Delete “\(item.title)”")
            case 6, 7:
                guard let parent = item.parent else {
                    description = "reorder the root"
                    #expect(throws: ListsError.rootIsFixed) { try lists.move(item.reference, toIndex: 0) }
                    break
                }
                let index = Int.random(in: 0 ..< parent.children.count, using: &random)
                description = "reorder \(item.title) to \(index)"
                try lists.move(item.reference, toIndex: index)
                // A row dropped where it was changes nothing: no undo step.
                if parent.children[index] !== item { names.append("Move “\(item.title)”") }
                parent.children.removeAll { $0 === item }
                parent.children.insert(item, at: index)
            default:
                let sameList = other === item.parent
                let index = Int.random(in: 0 ... max(0, other.children.count - (sameList ? 1 : 0)), using: &random)
                description = "move \(item.title) to \(other.title) at \(index)"
                if item.parent == nil {
                    #expect(throws: ListsError.rootIsFixed) { try lists.move(item.reference, to: other.reference, at: index) }
                } else if item.contains(other) {
                    #expect(throws: ListsError.moveIntoOwnSubtree(title: item.title)) { try lists.move(item.reference, to: other.reference, at: index) }
                } else {
                    try lists.move(item.reference, to: other.reference, at: index)
                    if !sameList || other.children[index] !== item { names.append("Move “\(item.title)”") }
                    item.parent?.children.removeAll { $0 === item }
                    other.children.insert(item, at: index)
                    item.parent = other
                }
            }
            let outline = try fixture.outline()
            #expect(outline == tree.outline, "step \(step): \(description)")
            #expect(try fixture.storeOutline() == outline, "step \(step): \(description)")
            #expect(try fixture.problems() == [], "step \(step): \(description)")
            #expect(fixture.session.undoActionName == names.last, "step \(step): \(description)")
            if outline != tree.outline { return }
        }

        let final = try fixture.outline()
        var undone: [String] = []
        while let name = try fixture.session.undo() {
            undone.append(name)
            #expect(try fixture.problems() == [], "after undoing \(name)")
        }
        #expect(undone == names.reversed())
        #expect(try fixture.outline() == "")
        #expect(try fixture.storeOutline() == "")
        var redone: [String] = []
        while let name = try fixture.session.redo() {
            redone.append(name)
            #expect(try fixture.problems() == [], "after redoing \(name)")
        }
        #expect(redone == names)
        #expect(try fixture.outline() == final)
        #expect(try fixture.storeOutline() == final)
    }
}
