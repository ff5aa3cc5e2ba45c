import Foundation
import Synchronization
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Lifecycle hooks, recorded in the log named by the entity's `userInfo["hookLog"]`
/// (each test's model has its own, as tests run in parallel).
final class LifecycleHookItem: ManagedObject {
    override func awakeFromInsert() {
        super.awakeFromInsert()
        setValue("untitled", forKey: "title")
        setValue(Int64(7), forKey: "order")
        HookLog.record(self, "awakeFromInsert")
    }

    override func awakeFromFetch() {
        super.awakeFromFetch()
        HookLog.record(self, "awakeFromFetch")
    }

    override func prepareForDeletion() {
        super.prepareForDeletion()
        let children = (value(forKey: "children") as? Set<ManagedObject>)?.count ?? -1
        HookLog.record(self, "prepareForDeletion children=\(children)")
    }

    override func willSave() {
        super.willSave()
        HookLog.record(self, "willSave")
        // A change made here is saved, and is made before validation (an empty title is invalid).
        if !isDeleted, value(forKey: "title") as? String == "" { setValue("named in willSave", forKey: "title") }
    }

    override func didSave() {
        super.didSave()
        HookLog.record(self, "didSave")
    }
}

/// Adds a rule of its own to each validation method, reported with the built-in ones.
final class ValidatedHookItem: ManagedObject {
    private var title: String { value(forKey: "title") as? String ?? "" }

    override func validateForInsert() throws {
        try combine(super.validateForInsert, title.contains(" ") ? "a title has no spaces" : nil)
    }

    override func validateForUpdate() throws {
        try combine(super.validateForUpdate, (value(forKey: "order") as? Int64 ?? 0) < 0 ? "order is never negative" : nil)
    }

    override func validateForDelete() throws {
        try combine(super.validateForDelete, title == "keep" ? "'keep' cannot be deleted" : nil)
    }

    /// The built-in errors and the custom one, as Core Data reports several: in one
    /// `.validationMultipleErrors` error.
    private func combine(_ builtIn: () throws -> Void, _ rule: String?) throws {
        var errors: [CoreDataError] = []
        do { try builtIn() } catch let error as CoreDataError {
            errors += error.code == .validationMultipleErrors ? error.underlyingErrors : [error]
        }
        if let rule { errors.append(CoreDataError(.validationGeneric, rule, objectID: objectID, key: "title")) }
        if errors.count == 1 { throw errors[0] }
        if errors.count > 1 { throw CoreDataError(.validationMultipleErrors, "\(errors.count) errors", underlyingErrors: errors) }
    }
}

/// Hook calls as "<event> <title>", per log name.
enum HookLog {
    private static let entries = Mutex<[String: [String]]>([:])

    static func record(_ object: ManagedObject, _ event: String) {
        guard let log = object.entity.userInfo["hookLog"] else { return }
        let title = object.value(forKey: "title") as? String ?? "nil"
        entries.withLock { $0[log, default: []].append("\(event) \(title)") }
    }

    static func take(_ log: String) -> [String] {
        entries.withLock { $0.removeValue(forKey: log) ?? [] }
    }
}

@Suite struct LifecycleHookTests {
    /// The nested-list model bound to `LifecycleHookItem`, with a fresh log; titles need 1–20 characters.
    static func model() -> (ManagedObjectModel, log: String) {
        ManagedObjectClasses.register(LifecycleHookItem.self)
        let model = Models.nestedList()
        let item = model.entities[0]
        let log = UUID().uuidString
        item.managedObjectClassName = "LifecycleHookItem"
        item.userInfo["hookLog"] = log
        let title = item.attributesByName["title"]!
        title.minLength = 1
        title.maxLength = 20
        return (model, log)
    }

    @Test(arguments: StoreKind.allCases)
    func awakeFromInsertRunsOnceAndSetsDefaults(kind: StoreKind) throws {
        let (model, log) = Self.model()
        let stack = try TestStack(model: model, kind: kind)
        let id = try stack.context.performAndWait {
            let item = stack.insert("Item")
            #expect(item is LifecycleHookItem)
            #expect(item.value(forKey: "title") as? String == "untitled")
            #expect(item.value(forKey: "order") as? Int64 == 7)
            let detached = LifecycleHookItem(entity: stack.model.entitiesByName["Item"]!, insertInto: nil)
            #expect(HookLog.take(log) == ["awakeFromInsert untitled"])
            stack.context.insert(detached)
            stack.context.insert(detached)
            #expect(HookLog.take(log) == ["awakeFromInsert untitled"])
            try stack.context.save()
            _ = HookLog.take(log)
            return item.objectID
        }
        let fresh = stack.newContext()
        try fresh.performAndWait {
            let loaded = try fresh.existingObject(with: id)
            #expect(loaded.value(forKey: "title") as? String == "untitled")
            #expect(loaded.value(forKey: "order") as? Int64 == 7)
        }
        #expect(!HookLog.take(log).contains { $0.hasPrefix("awakeFromInsert") })
    }

    @Test(arguments: StoreKind.allCases)
    func awakeFromFetchRunsWhenAFaultFiresNotOnInsert(kind: StoreKind) throws {
        let (model, log) = Self.model()
        let stack = try TestStack(model: model, kind: kind)
        try stack.context.performAndWait {
            for title in ["a", "b"] { stack.insert("Item").setValue(title, forKey: "title") }
            try stack.context.save()
            #expect(!HookLog.take(log).contains { $0.hasPrefix("awakeFromFetch") })
        }
        let fresh = stack.newContext()
        try fresh.performAndWait {
            let items = try fresh.fetch(FetchRequest<ManagedObject>(entityName: "Item"))
            #expect(items.count == 2 && items.allSatisfy(\.isFault))
            #expect(HookLog.take(log).isEmpty)
            let first = try #require(items.first)
            _ = first.value(forKey: "title")
            _ = first.value(forKey: "order")
            #expect(HookLog.take(log) == ["awakeFromFetch \(first.value(forKey: "title") as? String ?? "")"])
            fresh.reset()
            let request = FetchRequest<ManagedObject>(entityName: "Item")
            request.returnsObjectsAsFaults = false
            _ = try fresh.fetch(request)
            #expect(HookLog.take(log).sorted() == ["awakeFromFetch a", "awakeFromFetch b"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func prepareForDeletionRunsForEveryDeletedObjectBeforeTheDeleteRules(kind: StoreKind) throws {
        let (model, log) = Self.model()
        let stack = try TestStack(model: model, kind: kind)
        try stack.context.performAndWait {
            let (root, _, _, _) = stack.insertItemTree()
            try stack.context.save()
            _ = HookLog.take(log)
            stack.context.delete(root)
            stack.context.delete(root)
            stack.context.processPendingChanges()
            // Each object still holds its children when its own hook runs.
            // (The grandchild was released after the first save, so it comes back as a fault
            // and logs awakeFromFetch too.)
            #expect(HookLog.take(log).filter { $0.hasPrefix("prepareForDeletion") } == [
                "prepareForDeletion children=1 root", "prepareForDeletion children=1 child",
                "prepareForDeletion children=0 grandchild",
            ])
            try stack.context.save()
            #expect(!HookLog.take(log).contains { $0.hasPrefix("prepareForDeletion") })
        }
    }

    @Test(arguments: StoreKind.allCases)
    func willSaveRunsForEveryChangedObjectBeforeValidationAndItsChangesAreSaved(kind: StoreKind) throws {
        let (model, log) = Self.model()
        let stack = try TestStack(model: model, kind: kind)
        let ids = try stack.context.performAndWait {
            let updated = stack.insert("Item", ["title": "to update"])
            let deleted = stack.insert("Item", ["title": "to delete"])
            _ = stack.insert("Item", ["title": "untouched"])
            try stack.context.save()
            _ = HookLog.take(log)
            let inserted = stack.insert("Item", ["title": ""])
            updated.setValue("", forKey: "title")
            stack.context.delete(deleted)
            try stack.context.save()
            let calls = HookLog.take(log).filter { $0.hasPrefix("willSave") }
            #expect(calls.sorted() == ["willSave ", "willSave ", "willSave to delete"])
            return [inserted.objectID, updated.objectID]
        }
        let fresh = stack.newContext()
        try fresh.performAndWait {
            for id in ids {
                let saved = try fresh.existingObject(with: id)
                #expect(saved.value(forKey: "title") as? String == "named in willSave")
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func didSaveRunsAfterASuccessfulSaveOnly(kind: StoreKind) throws {
        let (model, log) = Self.model()
        let stack = try TestStack(model: model, kind: kind)
        try stack.context.performAndWait {
            let kept = stack.insert("Item", ["title": "kept"])
            let doomed = stack.insert("Item", ["title": "doomed"])
            try stack.context.save()
            #expect(HookLog.take(log).filter { $0.hasPrefix("didSave") }.sorted() == ["didSave doomed", "didSave kept"])
            let tooLong = stack.insert("Item", ["title": String(repeating: "x", count: 30)])
            kept.setValue("kept 2", forKey: "title")
            stack.context.delete(doomed)
            #expect(throws: CoreDataError.self) { try stack.context.save() }
            let failed = HookLog.take(log)
            #expect(failed.contains { $0.hasPrefix("willSave") })
            #expect(!failed.contains { $0.hasPrefix("didSave") })
            tooLong.setValue("short", forKey: "title")
            try stack.context.save()
            #expect(HookLog.take(log).filter { $0.hasPrefix("didSave") }.sorted() == ["didSave doomed", "didSave kept 2", "didSave short"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func overriddenValidationMethodsReportCustomRulesWithTheBuiltInOnes(kind: StoreKind) throws {
        ManagedObjectClasses.register(ValidatedHookItem.self)
        let model = Models.nestedList()
        model.entities[0].managedObjectClassName = "ValidatedHookItem"
        model.entities[0].attributesByName["title"]!.minLength = 2
        let stack = try TestStack(model: model, kind: kind)
        try stack.context.performAndWait {
            let keep = stack.insert("Item", ["title": "keep"])
            let changed = stack.insert("Item", ["title": "changed"])
            try stack.context.save()
            let spaced = stack.insert("Item", ["title": " "])   // too short, and has a space
            let short = stack.insert("Item", ["title": "x"])    // too short only
            changed.setValue(Int64(-1), forKey: "order")
            stack.context.delete(keep)
            let error = try #require(throws: CoreDataError.self) { try stack.context.save() }
            #expect(error.code == .validationMultipleErrors)
            let found = error.underlyingErrors.map { "\($0.code.name) \($0.objectID == spaced.objectID ? "spaced" : $0.objectID == short.objectID ? "short" : $0.objectID == changed.objectID ? "changed" : $0.objectID == keep.objectID ? "keep" : "?")" }
            #expect(found.sorted() == [
                "validation changed", "validation keep", "validation spaced",
                "validationStringTooShort short", "validationStringTooShort spaced",
            ])
            #expect(error.underlyingErrors.contains { $0.message == "'keep' cannot be deleted" })
            let fresh = stack.newContext()
            #expect(try fresh.performAndWait { try fresh.count(for: FetchRequest<ManagedObject>(entityName: "Item")) } == 2)
            spaced.setValue("spaced", forKey: "title")
            short.setValue("xy", forKey: "title")
            changed.setValue(Int64(1), forKey: "order")
            let single = try #require(throws: CoreDataError.self) { try stack.context.save() }
            #expect(single.code == .validationGeneric && single.objectID == keep.objectID)
            stack.context.rollback()
            let again = stack.insert("Item", ["title": "fine"])
            changed.setValue(Int64(3), forKey: "order")
            try stack.context.save()
            #expect(!again.objectID.isTemporaryID)
            #expect(try stack.context.count(for: FetchRequest<ManagedObject>(entityName: "Item")) == 3)
        }
    }
}
