import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// `ResolvedKeyPath`: the steps a key path resolves to, the relationships it crosses, and
/// the one set of errors every walker reports.
@Suite struct ResolvedKeyPathTests {
    /// The nested-list model's `Item`, frozen by a stack's coordinator.
    private static func item() throws -> (TestStack, EntityDescription) {
        let stack = try TestStack(model: Models.nestedList(), kind: .inMemory)
        return (stack, try #require(stack.model.entitiesByName["Item"]))
    }

    /// A readable form of the steps: "attribute title", "toOne parent", "toMany children", "@count".
    private static func describe(_ path: ResolvedKeyPath) -> [String] {
        path.steps.map { step in
            switch step {
            case .attribute(let attribute, _): return "attribute \(attribute.name)"
            case .toOne(let relationship, _): return "toOne \(relationship.name)"
            case .toMany(let relationship, _): return "toMany \(relationship.name)"
            case .collectionOperator(let op): return op.rawValue
            }
        }
    }

    @Test func resolvesEachStepKind() throws {
        let (_, item) = try Self.item()
        #expect(Self.describe(try ResolvedKeyPath("title", from: item)) == ["attribute title"])
        #expect(Self.describe(try ResolvedKeyPath("parent.title", from: item)) == ["toOne parent", "attribute title"])
        #expect(Self.describe(try ResolvedKeyPath("children.title", from: item)) == ["toMany children", "attribute title"])
        #expect(Self.describe(try ResolvedKeyPath("children.@count", from: item)) == ["toMany children", "@count"])
        #expect(Self.describe(try ResolvedKeyPath("children.@sum.order", from: item)) == ["toMany children", "@sum", "attribute order"])
        #expect(Self.describe(try ResolvedKeyPath("children.@distinctUnionOfObjects.title", from: item)) == ["toMany children", "@distinctUnionOfObjects", "attribute title"])
        let parent = try ResolvedKeyPath("parent", from: item)
        #expect(parent.destination === item && parent.property?.name == "parent")
        #expect(try ResolvedKeyPath("parent.title", from: item).destination == nil)
        #expect(try ResolvedKeyPath("children.@count", from: item).destination == nil)
    }

    @Test func reportsTheRelationshipsItCrosses() throws {
        let (_, item) = try Self.item()
        let toOne = try ResolvedKeyPath("parent.parent.title", from: item)
        #expect(toOne.crossedRelationships.map(\.name) == ["parent", "parent"])
        #expect(!toOne.crossesToMany && !toOne.yieldsToMany)
        let toMany = try ResolvedKeyPath("parent.children.title", from: item)
        #expect(toMany.crossedRelationships.map(\.name) == ["parent", "children"])
        #expect(toMany.crossesToMany && toMany.yieldsToMany)
        let counted = try ResolvedKeyPath("children.@count", from: item)
        #expect(counted.crossedRelationships.map(\.name) == ["children"])
        #expect(counted.crossesToMany && !counted.yieldsToMany)
        #expect(try ResolvedKeyPath("title", from: item).crossedRelationships.isEmpty)
    }

    /// Each resolution failure, with its code, message and key.
    @Test(arguments: [
        ("nosuch", CoreDataError.Code.invalidFetchRequest, "Key path 'nosuch': entity 'Item' has no property 'nosuch'."),
        ("parent.nosuch", .invalidFetchRequest, "Key path 'parent.nosuch': entity 'Item' has no property 'nosuch'."),
        ("title.order", .invalidFetchRequest, "Key path 'title.order': 'order' follows the attribute 'Item.title', a value that has no keys."),
        ("children.@count.order", .invalidFetchRequest, "Key path 'children.@count.order': 'order' follows the number @count gives, a value that has no keys."),
        ("children.@median", .invalidPredicate, "Key path 'children.@median': unknown collection operator @median."),
        ("title.@count", .invalidPredicate, "Key path 'title.@count': the collection operator @count applies to collections, not to the attribute 'Item.title'."),
        ("parent.@sum.order", .invalidPredicate, "Key path 'parent.@sum.order': the collection operator @sum applies to collections, not to the to-one relationship 'Item.parent'."),
    ])
    func resolutionErrors(keyPath: String, code: CoreDataError.Code, message: String) throws {
        let (_, item) = try Self.item()
        let error = try #require(throws: CoreDataError.self) { try ResolvedKeyPath(keyPath, from: item) }
        #expect(error.code == code)
        #expect(error.message == message)
        #expect(error.key == keyPath)
    }

    @Test func pathsTooLongAreRefused() throws {
        let (_, item) = try Self.item()
        let long = Array(repeating: "parent", count: ResolvedKeyPath.maximumKeys).joined(separator: ".") + ".title"
        let error = try #require(throws: CoreDataError.self) { try ResolvedKeyPath(long, from: item) }
        #expect(error.code == .invalidPredicate && error.message.contains("at most 64"))
    }

    @Test func toManyWhereOnlyToOneCanBe() throws {
        let (_, item) = try Self.item()
        let sort = try #require(throws: CoreDataError.self) { try ResolvedKeyPath("children.title", from: item).requireToOne(in: .sortDescriptor) }
        #expect(sort.code == .invalidFetchRequest && sort.key == "children.title")
        #expect(sort.message == "The to-many key 'children.title' is not allowed here: a fetch cannot sort by a to-many relationship.")
        let counted = try #require(throws: CoreDataError.self) { try ResolvedKeyPath("children.@count", from: item).requireToOne(in: .dictionaryFetch) }
        #expect(counted.code == .invalidFetchRequest)
        #expect(counted.message == "The to-many key 'children.@count' is not allowed here: a dictionary fetch can fetch or group by attributes and to-one relationships only.")
        try ResolvedKeyPath("parent.parent.title", from: item).requireToOne(in: .sortDescriptor)
    }
}
