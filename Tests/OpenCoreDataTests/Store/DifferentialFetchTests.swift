import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Random predicates and sorts over random data (seeded; the seed is printed): the SQLite
/// store's answer must equal the evaluator's in memory over the same objects, and the
/// in-memory store's answer for the same data.
@Suite struct DifferentialFetchTests {
    /// One object's values; `parent` is the index of another row.
    struct Row {
        var int64: Int64?, double: Double?, string: String?, flag: Bool?, date: Date?, parent: Int?
    }

    /// A predicate constant: a value, or the object of a row (resolved in each context).
    enum Constant {
        case value(Any?)
        case row(Int)
        /// The objects of these rows, as an array.
        case rows([Int])

        func argument(_ objects: [ManagedObject]) -> Any? {
            switch self {
            case .value(let value): value
            case .row(let index): objects[index]
            case .rows(let indexes): indexes.map { objects[$0] }
            }
        }
    }

    /// A predicate, built again in each context.
    indirect enum Spec {
        case comparison(key: String, op: String, Constant)
        /// A format string whose `%@` arguments are these constants.
        case format(String, [Constant])
        case and([Spec]), or([Spec]), not(Spec)

        func predicate(rows objects: [ManagedObject]) throws -> CDPredicate {
            switch self {
            case let .format(format, constants):
                let arguments = constants.map { $0.argument(objects) }
                return try CDPredicate(format: format, argumentArray: arguments)
            case let .comparison(key, op, constant):
                let value = constant.argument(objects)
                if key == "SELF" { return try CDPredicate(format: "SELF \(op) %@", argumentArray: [value]) }
                return try CDPredicate(format: "%K \(op) %@", argumentArray: [key, value])
            case .and(let parts): return CDCompoundPredicate(andPredicateWithSubpredicates: try parts.map { try $0.predicate(rows: objects) })
            case .or(let parts): return CDCompoundPredicate(orPredicateWithSubpredicates: try parts.map { try $0.predicate(rows: objects) })
            case .not(let part): return CDCompoundPredicate(notPredicateWithSubpredicate: try part.predicate(rows: objects))
            }
        }
    }

    static let strings = ["", "a", "A", "b", "ab", "abc", "Zebra", "zebra", "é", "e\u{301}", "ü", "日本", "日本語", "🙂", " a", "a ", "'q'", "%@", "NULL",
                          "Straße", "STRASSE", "strasse", "Éclair", "éclair", "ECLAIR", "a*b", "a?c", "50%_off", "back\\slash", "file2", "file10", "File1"]
    static let sortKeys = ["int64", "double", "string", "flag", "date", "key", "parent.string", "parent.int64", "parent.parent.date"]
    static let operators = ["==", "!=", "<", "<=", ">", ">="]

    // MARK: - Random data

    static func randomRows(_ random: inout SeededRandom, count: Int) -> [Row] {
        (0..<count).map { index in
            Row(
                int64: random.chance(0.1) ? nil : random.chance(0.05) ? random.pick([.max, .min, 1 << 53 + 1]) : Int64.random(in: -50...50, using: &random),
                double: random.chance(0.1) ? nil : random.chance(0.05) ? random.pick([.infinity, -.infinity, 1e300, -0.0, 0.1]) : Double(Int.random(in: -40...40, using: &random)) / 4,
                string: random.chance(0.15) ? nil : random.pick(strings),
                flag: random.chance(0.15) ? nil : Bool.random(using: &random),
                date: random.chance(0.1) ? nil : Date(timeIntervalSinceReferenceDate: Double(Int.random(in: -5...5, using: &random)) * 86_400 + random.pick([0, 0.5, 3600])),
                parent: random.chance(0.3) ? nil : (index + Int.random(in: 1..<count, using: &random)) % count)
        }
    }

    /// A constant for `key`: often a value some row holds, sometimes another of the same
    /// type, another numeric type, nil, or a value of an unrelated type.
    static func randomConstant(for key: String, _ rows: [Row], _ random: inout SeededRandom) -> Constant {
        let row = random.pick(rows)
        if random.chance(0.08) { return .value(nil) }
        let mismatched = random.chance(0.08)
        switch key.split(separator: ".").last! {
        case "int64":
            if mismatched { return .value(random.pick(["5", Date(timeIntervalSinceReferenceDate: 0)] as [Any])) }
            return .value(random.pick([row.int64 as Any, Int.random(in: -60...60, using: &random), Double(Int.random(in: -60...60, using: &random)) + 0.5,
                                       Decimal(Int.random(in: -60...60, using: &random)) / 4, random.pick([true, false]), Double(Int64.max)]))
        case "double":
            if mismatched { return .value("1.5") }
            return .value(random.pick([row.double as Any, Double(Int.random(in: -44...44, using: &random)) / 4, Int.random(in: -11...11, using: &random),
                                       Decimal(string: "2.25")!, Double.infinity]))
        case "string", "key":
            if mismatched { return .value(Int.random(in: 0...3, using: &random)) }
            return .value(random.chance(0.7) ? row.string as Any : random.pick(strings))
        case "flag":
            if mismatched { return .value("true") }
            return .value(random.pick([row.flag as Any, true, false, 0, 1, 2]))
        case "date":
            if mismatched { return .value(Int.random(in: -86_400...86_400, using: &random)) }
            return .value(random.chance(0.7) ? row.date as Any : Date(timeIntervalSinceReferenceDate: Double(Int.random(in: -500_000...500_000, using: &random))))
        default: // parent, SELF
            return .row(Int.random(in: 0..<rows.count, using: &random))
        }
    }

    static func randomSpec(_ rows: [Row], _ random: inout SeededRandom, depth: Int = 0) -> Spec {
        if depth < 3 && random.chance(0.35) {
            let parts = (0..<Int.random(in: 1...3, using: &random)).map { _ in randomSpec(rows, &random, depth: depth + 1) }
            switch Int.random(in: 0..<3, using: &random) {
            case 0: return .and(parts)
            case 1: return .or(parts)
            default: return .not(parts[0])
            }
        }
        if random.chance(0.5) { return randomLanguageSpec(rows, &random) }
        let key = random.pick(["int64", "double", "string", "flag", "date", "key", "parent.int64", "parent.string", "parent.parent.date", "parent", "SELF"])
        let constant = randomConstant(for: key, rows, &random)
        let objectKey = key == "parent" || key == "SELF"
        let op = objectKey ? random.pick(["==", "!="]) : random.pick(operators)
        if objectKey && random.chance(0.2) { return .comparison(key: key, op: op, .value(nil)) }
        return .comparison(key: key, op: op, constant)
    }

    // MARK: - Stores

    /// Saves `rows` as samples r000… (int32 = index) and returns a fresh context's objects by index.
    static func populate(_ kind: StoreKind, _ rows: [Row]) throws -> (TestStack, ManagedObjectContext, [ManagedObject]) {
        let stack = try TestStack(model: Models.samples(), kind: kind)
        try stack.context.performAndWait {
            let objects = rows.enumerated().map { index, row in
                stack.insert("Sample", ["key": String(format: "r%03d", index), "int32": index, "int64": row.int64, "double": row.double,
                                        "string": row.string, "flag": row.flag, "date": row.date])
            }
            for (index, row) in rows.enumerated() { objects[index].setValue(row.parent.map { objects[$0] }, forKey: "parent") }
            try stack.context.save()
        }
        let reader = stack.newContext()
        let objects = try reader.performAndWait { try reader.fetch(stack.request(sortedBy: ["int32"])) }
        return (stack, reader, objects)
    }

    /// 600, or `OCD_DIFF_PREDICATES` (to search further for a disagreement).
    static let predicateCount = ProcessInfo.processInfo.environment["OCD_DIFF_PREDICATES"].flatMap { Int($0) } ?? 600

    @Test func sqliteStoreEvaluatorAndInMemoryStoreAgree() throws {
        var random = SeededRandom.fromEnvironment(for: "DifferentialFetchTests")
        let rows = Self.randomRows(&random, count: 200)
        let (sqlite, sqliteReader, sqliteObjects) = try Self.populate(.sqlite, rows)
        let (memory, memoryReader, memoryObjects) = try Self.populate(.inMemory, rows)
        var failures: [String] = []
        var matched = 0
        var typedErrors = 0
        for number in 0..<Self.predicateCount {
            let spec = Self.randomSpec(rows, &random)
            var sorts = (0..<Int.random(in: 0...2, using: &random)).map { _ in
                CDSortDescriptor(key: random.pick(Self.sortKeys), ascending: Bool.random(using: &random), selector: random.pick(CDSortDescriptor.Selector.allCases))
            }
            sorts.append(CDSortDescriptor(key: "int32", ascending: Bool.random(using: &random)))
            let (offset, limit) = random.chance(0.2) ? (Int.random(in: 0...30, using: &random), Int.random(in: 1...40, using: &random)) : (0, 0)
            func request(_ objects: [ManagedObject]) throws -> FetchRequest<ManagedObject> {
                let request = FetchRequest<ManagedObject>(entityName: "Sample")
                request.predicate = try spec.predicate(rows: objects)
                request.sortDescriptors = sorts
                (request.fetchOffset, request.fetchLimit) = (offset, limit)
                return request
            }
            let serials = { (objects: [ManagedObject]) in objects.map { $0.value(forKey: "int32") as? Int32 ?? -1 } }
            /// The serials fetched, "overflow" for an integer @sum outside 64 bits, or "error"
            /// when the fetch threw another typed error.
            func outcome(_ body: () throws -> [ManagedObject]) -> String {
                do { return "\(serials(try body()))" } catch let error as CoreDataError {
                    return error.code == .validationNumberTooLarge ? "overflow" : "error"
                } catch { return "untyped error \(error)" }
            }
            /// An overflowing @sum is an error that depends on the rows evaluated: the evaluator
            /// computes it for every object (left to right, as AND and OR short-circuit), SQLite
            /// for the rows its plan visits, in its own order. Either side may then answer.
            func agree(_ fetched: String, _ expected: String) -> Bool {
                fetched == expected || (fetched == "overflow" && !expected.hasPrefix("untyped")) || (expected == "overflow" && !fetched.hasPrefix("untyped"))
            }
            try sqliteReader.performAndWait {
                let predicate = try spec.predicate(rows: sqliteObjects)
                let description = "#\(number) \(predicate.predicateFormat) sorted by \(sorts) offset \(offset) limit \(limit)"
                var expectedCount: Int?
                let expected = outcome {
                    let all = CDSortDescriptor.sort(try sqliteObjects.filter { try predicate.evaluateThrowing(with: $0) }, by: sorts)
                    matched += all.count
                    let window = Array(all.dropFirst(offset).prefix(limit > 0 ? limit : .max))
                    expectedCount = window.count
                    return window
                }
                if expected == "error" || expected == "overflow" { typedErrors += 1 }
                let fetched = outcome { try sqliteReader.fetch(request(sqliteObjects)) }
                if !agree(fetched, expected) {
                    failures.append("SQLite store \(description): \(fetched) ≠ evaluator \(expected)")
                }
                if let expectedCount, let counted = try? sqliteReader.count(for: request(sqliteObjects)), counted != expectedCount {
                    failures.append("SQLite store count \(description): \(counted) ≠ \(expectedCount)")
                }
                let inMemory = memoryReader.performAndWait { outcome { try memoryReader.fetch(request(memoryObjects)) } }
                if inMemory != expected {
                    failures.append("in-memory store \(description): \(inMemory) ≠ evaluator \(expected)")
                }
            }
        }
        print("DifferentialFetchTests: \(matched) matches over \(Self.predicateCount) predicates (\(typedErrors) typed errors), \(failures.count) disagreements")
        #expect(failures.isEmpty, "seed \(random.seed): \(failures.count) disagreements, first:\n\(failures.prefix(8).joined(separator: "\n"))")
        _ = (sqlite, memory)
    }
}
