import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Random data, random dictionary requests: the SQLite store's SQL and the in-memory
/// store's Swift give the same dictionaries.
@Suite struct DictionaryFetchDifferentialTests {
    private static let groups = ["a", "b", "c", nil]

    /// The same random samples in a SQLite and an in-memory stack; ASCII strings only,
    /// so that SQL's MIN/MAX and Swift's comparison agree.
    private func stacks(_ random: inout SeededRandom) throws -> [TestStack] {
        let stacks = try StoreKind.allCases.map { try TestStack(model: Models.samples(), kind: $0) }
        var rows: [[String: Any?]] = []
        var hasParent: [Bool] = []
        for i in 0..<60 {
            hasParent.append(random.chance(0.5))
            rows.append([
                "key": "k\(i)",
                "group": random.pick(Self.groups),
                "int64": random.chance(0.2) ? nil : Int64.random(in: -50...50, using: &random),
                "double": random.chance(0.2) ? nil : Double(Int.random(in: 0...400, using: &random)) / 4,
                "string": random.chance(0.3) ? nil : random.pick(["x", "y", "z"]),
            ])
        }
        for stack in stacks {
            try stack.context.performAndWait {
                var saved: [ManagedObject] = []
                for (values, linked) in zip(rows, hasParent) {
                    let object = stack.insert("Sample", values)
                    if let parent = saved.last, linked { object.setValue(parent, forKey: "parent") }
                    saved.append(object)
                }
                try stack.context.save()
                stack.context.reset()
            }
        }
        return stacks
    }

    private func expression(_ name: String, _ function: String, _ keyPath: String) -> ExpressionDescription {
        let description = ExpressionDescription(name: name)
        description.expression = CDExpression(forFunction: function, arguments: [.keyPath(keyPath)])
        return description
    }

    /// A random request: grouped aggregates, distinct values, or plain rows with key paths.
    private func randomRequest(_ random: inout SeededRandom) throws -> FetchRequest<NSDictionary> {
        let request = FetchRequest<NSDictionary>(entityName: "Sample")
        request.resultType = .dictionaryResultType
        if random.chance(0.5) { request.predicate = try CDPredicate(format: "int64 > %d", Int.random(in: -40...40, using: &random)) }
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
            let key = random.pick(["group", "string", "parent"])
            let function = random.pick(["sum:", "count:", "min:", "max:", "average:"])
            let argument = random.pick(["int64", "double"])
            request.propertiesToFetch = [key, expression("value", function, argument), expression("n", "count:", "key")]
            request.propertiesToGroupBy = [key]
            if random.chance(0.4) { request.havingPredicate = try CDPredicate(format: "n > 2") }
            request.sortDescriptors = [CDSortDescriptor(key: "n", ascending: random.chance(0.5)), CDSortDescriptor(key: key == "parent" ? "parent.key" : key)]
        case 1:
            request.propertiesToFetch = [random.pick(["group", "string"])]
            request.returnsDistinctResults = true
            request.sortDescriptors = [CDSortDescriptor(key: (request.propertiesToFetch![0] as! String), ascending: random.chance(0.5))]
        default:
            request.propertiesToFetch = ["key", "int64", "parent", "parent.key", "parent.group"]
            request.sortDescriptors = [CDSortDescriptor(key: random.pick(["int64", "parent.key", "group"]), ascending: random.chance(0.5))]
        }
        if random.chance(0.3) { request.fetchLimit = Int.random(in: 1...5, using: &random) }
        if random.chance(0.3) { request.fetchOffset = Int.random(in: 0...3, using: &random) }
        return request
    }

    /// A dictionary as comparable text: keys sorted, object IDs by entity and key.
    private func describe(_ dictionary: [String: Any]) -> String {
        dictionary.keys.sorted().map { key in
            let value = dictionary[key]!
            if let id = value as? ManagedObjectID { return "\(key)=\(id.entity.name)#\(id.primaryKey ?? -1)" }
            return "\(key)=\(value) (\(type(of: value)))"
        }.joined(separator: ", ")
    }

    @Test func sqliteAndMemoryAgree() throws {
        var random = SeededRandom.fromEnvironment(for: "DictionaryFetchDifferentialTests")
        let stacks = try stacks(&random)
        for round in 0..<60 {
            let request = try randomRequest(&random)
            let results = try stacks.map { stack in
                try stack.context.performAndWait { try stack.context.fetchDictionaries(request).map(describe) }
            }
            #expect(results[0] == results[1], "round \(round), seed \(random.seed): \(request.propertiesToFetch ?? [])")
        }
    }
}
