import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Random predicates over a random tree of items give the same answer — the same Boolean,
/// or an error in every case — on managed objects of each store, on the in-memory store's
/// own rows, and on dictionaries holding the same values.
@Suite struct EvaluationAgreementTests {
    private typealias T = Tree

    private enum Answer: Hashable, CustomStringConvertible {
        case value(Bool)
        case error
        var description: String {
            switch self {
            case .value(let flag): return "\(flag)"
            case .error: return "error"
            }
        }
    }

    private func answer(_ predicate: CDPredicate, _ object: Any) -> Answer {
        do { return .value(try predicate.evaluateThrowing(with: object)) } catch { return .error }
    }

    // MARK: - Data

    private static let titles = ["alpha", "Beta", "ÉCOLE", "straße", "gamma ray", "a1", "a10", ""]

    /// 30 items in a random forest, saved and read back as faults.
    private func forest(_ kind: StoreKind, _ random: inout SeededRandom) throws -> (TestStack, [ManagedObject]) {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        var generator = random
        let objects: [ManagedObject] = try stack.context.performAndWait {
            var made: [ManagedObject] = []
            for _ in 0..<30 {
                let item = stack.insert("Item", ["title": generator.pick(Self.titles), "order": Int64.random(in: -3...5, using: &generator)])
                if !made.isEmpty, generator.chance(0.7) { item.setValue(generator.pick(made), forKey: "parent") }
                made.append(item)
            }
            try stack.context.save()
            let ids = made.map(\.objectID)
            stack.context.reset()
            return ids.map { stack.context.object(with: $0) }
        }
        random = generator
        return (stack, objects)
    }

    /// The values of `object` as nested dictionaries: its parents up two levels, its
    /// children down two, its parent's children.
    private func dictionary(_ object: ManagedObject, up: Int = 2, down: Int = 2) -> [String: Any] {
        var result: [String: Any] = ["title": object.value(forKey: "title") as Any, "order": object.value(forKey: "order") as Any]
        if up > 0, let parent = object.value(forKey: "parent") as? ManagedObject {
            result["parent"] = dictionary(parent, up: up - 1, down: 1)
        }
        let children = (object.value(forKey: "children") as? Set<ManagedObject>) ?? []
        result["children"] = down > 0 ? children.map { dictionary($0, up: 0, down: down - 1) } : [[String: Any]]()
        return result
    }

    // MARK: - Predicates

    private static let stringPaths = ["title", "parent.title", "parent.parent.title"]
    private static let numberPaths = ["order", "parent.order", "children.@count", "children.@sum.order", "children.@max.order", "parent.children.@count"]
    private static let stringCollections = ["children.title", "children.children.title", "parent.children.title"]
    private static let numberCollections = ["children.order", "children.children.order"]

    private func randomPredicate(_ random: inout SeededRandom, depth: Int = 0) -> CDPredicate {
        if depth < 2, random.chance(0.35) {
            let parts = (0..<Int.random(in: 1...3, using: &random)).map { _ in randomPredicate(&random, depth: depth + 1) }
            switch Int.random(in: 0..<3, using: &random) {
            case 0: return CDCompoundPredicate(andPredicateWithSubpredicates: parts)
            case 1: return CDCompoundPredicate(orPredicateWithSubpredicates: parts)
            default: return !parts[0]
            }
        }
        return random.chance(0.5) ? stringComparison(&random) : numberComparison(&random)
    }

    private func stringComparison(_ random: inout SeededRandom) -> CDPredicate {
        let operators: [CDComparisonPredicate.Operator] = [.equalTo, .notEqualTo, .lessThan, .greaterThanOrEqualTo, .beginsWith, .endsWith, .contains, .like, .matches, .in]
        let type = random.pick(operators)
        let options = random.pick([[], .caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive]] as [CDComparisonPredicate.Options])
        var right: CDExpression = T.const(.string(random.pick(["a", "A", "e", "ss", "ray", "a*", "?eta", ".*a.*", "alpha", ""])))
        if type == .in { right = T.const(.array([.string(random.pick(Self.titles)), .string(random.pick(Self.titles))])) }
        let modifier: CDComparisonPredicate.Modifier = random.chance(0.4) ? random.pick([.any, .all]) : .direct
        var left = T.key(random.pick(modifier == .direct ? Self.stringPaths : Self.stringCollections))
        if modifier == .direct, random.chance(0.15) { left = T.fn(random.pick(["uppercase:", "lowercase:"]), left) }
        return T.compare(left, type, right, modifier, options)
    }

    private func numberComparison(_ random: inout SeededRandom) -> CDPredicate {
        let type = random.pick([.equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .between, .in] as [CDComparisonPredicate.Operator])
        let number = { (random: inout SeededRandom) in CDValue.int64(Int64.random(in: -2...6, using: &random)) }
        var right = T.const(number(&random))
        if type == .between || type == .in { right = T.const(.array([number(&random), number(&random)])) }
        let modifier: CDComparisonPredicate.Modifier = random.chance(0.3) ? random.pick([.any, .all]) : .direct
        var left = T.key(random.pick(modifier == .direct ? Self.numberPaths : Self.numberCollections))
        if modifier == .direct, random.chance(0.3) {
            left = T.fn(random.pick(["add:to:", "from:subtract:", "multiply:by:", "modulus:by:", "divide:by:"]), left, T.const(number(&random)))
        }
        if modifier == .direct, random.chance(0.1) {
            let variable = CDExpression.variable("c")
            let inner = CDExpression(.member(variable, keyPath: "order")).compare(.greaterThan, T.const(number(&random)))
            left = CDExpression(.member(CDExpression(forSubquery: T.key("children"), usingIteratorVariable: "c", predicate: inner), keyPath: "@count"))
        }
        return T.compare(left, type, right, modifier)
    }

    // MARK: - The test

    @Test func objectsRowsAndDictionariesAgree() throws {
        var random = SeededRandom.fromEnvironment(for: "EvaluationAgreementTests")
        let seed = random.seed
        var forestRandom = random
        let (sqlite, sqliteObjects) = try forest(.sqlite, &forestRandom)
        var sameForest = random
        let (memory, memoryObjects) = try forest(.inMemory, &sameForest)
        random = forestRandom
        let store = try #require(memory.coordinator.persistentStores.first?.backend as? InMemoryStore)
        try memory.context.performAndWait {
            try sqlite.context.performAndWait {
                let rows = try store.fetch(StoreFetch(FetchRequest<ManagedObject>(entityName: "Item"), model: memory.model))
                let rowByID = Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0) })
                let dictionaries = sqliteObjects.map { dictionary($0) }
                var counts: [Answer: Int] = [:]
                for number in 0..<300 {
                    let predicate = randomPredicate(&random)
                    for index in sqliteObjects.indices {
                        let expected = answer(predicate, sqliteObjects[index])
                        counts[expected, default: 0] += 1
                        let memoryObject = memoryObjects[index]
                        let row = try #require(rowByID[memoryObject.objectID].flatMap { row in store.rows[row.id].map { StoredRow(store: store, id: row.id, snapshot: $0) } })
                        let others = [answer(predicate, memoryObject), answer(predicate, row), answer(predicate, dictionaries[index])]
                        guard others.allSatisfy({ $0 == expected }) else {
                            Issue.record("seed \(seed), predicate \(number) \(predicate) on item \(index): SQLite objects \(expected), in-memory objects, rows, dictionaries \(others)")
                            return
                        }
                    }
                }
                print("EvaluationAgreementTests: answers \(counts)")
                #expect(counts[.value(true), default: 0] > 1000 && counts[.value(false), default: 0] > 1000, "seed \(seed): \(counts)")
                #expect(counts[.error, default: 0] < 1000, "seed \(seed): \(counts)")
            }
        }
    }
}
