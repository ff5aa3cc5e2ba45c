import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// The differential test's check on the notes model: many-to-many paths (join tables,
/// both directions), an ordered one-to-many with index access, and to-one steps inside
/// collections. Random data and predicates (seeded; `OCD_SEED` replays); the SQLite
/// store, the in-memory store and the evaluator must agree.
@Suite struct ManyToManyDifferentialTests {
    static let words = ["swift", "Swift", "linux", "", "é", "e\u{301}", "Straße", "STRASSE", "a*b", "50%", nil]

    /// Saves random folders, notes and tags; returns a fresh context.
    static func populate(_ kind: StoreKind, seed: UInt64) throws -> (TestStack, ManagedObjectContext) {
        var random = SeededRandom(seed: seed)
        let stack = try TestStack(model: Models.notes(), kind: kind)
        try stack.context.performAndWait {
            let tags = (0..<8).map { _ in stack.insert("Tag", ["name": random.pick(words)]) }
            let folders = (0..<6).map { index in stack.insert("Folder", ["name": "f\(index)"]) }
            for index in 0..<40 {
                let note = stack.insert("Note", ["text": random.chance(0.8) ? random.pick(words) : "n\(index)"])
                for tag in tags where random.chance(0.25) { note.mutableSetValue(forKey: "tags").add(tag) }
                if random.chance(0.8) { random.pick(folders).mutableOrderedSetValue(forKey: "notes").append(note) }
            }
            try stack.context.save()
        }
        return (stack, stack.newContext())
    }

    static func randomFormat(_ random: inout SeededRandom) -> (entity: String, format: String, argument: Any?) {
        let word: Any? = random.pick(words)
        let op = random.pick(["==", "!=", "BEGINSWITH", "CONTAINS", "LIKE", "<"]) + random.pick(["", "[c]", "[cd]"])
        let count = Int.random(in: 0...3, using: &random)
        return random.pick([
            ("Note", "ANY tags.name \(op) %@", word),
            ("Note", "ALL tags.name \(op) %@", word),
            ("Note", "NONE tags.notes.text \(op) %@", word),
            ("Note", "tags.@count >= %@", count),
            ("Note", "SUBQUERY(tags, $t, $t.name \(op) %@).@count > 0", word),
            ("Note", "folder.notes[FIRST].text \(op) %@", word),
            ("Note", "folder.notes.@count == %@", count + 5),
            ("Note", "%@ IN tags.name", word),
            ("Tag", "ANY notes.folder.name \(op) %@", random.pick(["f1", "F2", "f"])),
            ("Tag", "notes.@count > %@", count),
            ("Tag", "SUBQUERY(notes, $n, ANY $n.tags.name \(op) %@).@count >= 2", word),
            ("Folder", "notes[SIZE] > %@", count + 4),
            ("Folder", "notes[LAST].text \(op) %@", word),
            ("Folder", "notes[2].text \(op) %@", word),
            ("Folder", "ANY notes.tags.name \(op) %@", word),
            ("Folder", "ALL notes.tags.@count > %@", count - 1),
        ] as [(String, String, Any?)])
    }

    @Test func storesAndEvaluatorAgree() throws {
        var random = SeededRandom.fromEnvironment(for: "ManyToManyDifferentialTests")
        let (sqlite, sqliteReader) = try Self.populate(.sqlite, seed: random.seed)
        let (memory, memoryReader) = try Self.populate(.inMemory, seed: random.seed)
        var failures: [String] = []
        var (matching, errors) = (0, 0)
        for _ in 0..<200 {
            let (entity, format, argument) = Self.randomFormat(&random)
            let predicate = try CDPredicate(format: format, argumentArray: [argument])
            func names(_ context: ManagedObjectContext, filtered: Bool) -> String {
                context.performAndWait {
                    let request = FetchRequest<ManagedObject>(entityName: entity)
                    let key = entity == "Note" ? "text" : "name"
                    request.sortDescriptors = [CDSortDescriptor(key: key)]
                    do {
                        var objects = try context.fetch(request)
                        if filtered {
                            objects = try objects.filter { try predicate.evaluateThrowing(with: $0) }
                        } else {
                            request.predicate = predicate
                            objects = try context.fetch(request)
                        }
                        return objects.map { "\($0.objectID.primaryKey ?? -1)" }.joined(separator: ",")
                    } catch is CoreDataError {
                        return "error"
                    } catch {
                        return "untyped \(error)"
                    }
                }
            }
            let expected = names(sqliteReader, filtered: true)
            if expected == "error" { errors += 1 } else if !expected.isEmpty { matching += 1 }
            let fromSQLite = names(sqliteReader, filtered: false)
            let fromMemory = names(memoryReader, filtered: false)
            if fromSQLite != expected || fromMemory != expected {
                failures.append("\(entity) \(predicate.predicateFormat): SQLite \(fromSQLite), in-memory \(fromMemory), evaluator \(expected)")
            }
        }
        print("ManyToManyDifferentialTests: \(matching) of 200 predicates match some objects, \(errors) typed errors, \(failures.count) disagreements")
        #expect(failures.isEmpty, "seed \(random.seed): \(failures.count) disagreements, first:\n\(failures.prefix(5).joined(separator: "\n"))")
        _ = (sqlite, memory)
    }
}
