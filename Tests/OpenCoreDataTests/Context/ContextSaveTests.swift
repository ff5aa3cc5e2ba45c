import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

@Suite struct ContextSaveTests {
    @Test(arguments: StoreKind.allCases)
    func saveAssignsPermanentIDsAndClearsChanges(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        try stack.context.performAndWait {
            let item = stack.insert("Item", ["title": "milk"])
            #expect(item.objectID.isTemporaryID)
            #expect(item.isInserted && item.hasChanges && stack.context.hasChanges)
            #expect(stack.context.insertedObjects == [item])
            try stack.context.save()
            #expect(!item.objectID.isTemporaryID)
            #expect(item.objectID.uriRepresentation().absoluteString.hasPrefix("x-coredata://"))
            #expect(item.objectID.uriRepresentation().absoluteString.hasSuffix("/Item/p1"))
            #expect(!item.isInserted && !item.hasChanges && !stack.context.hasChanges)
            #expect(stack.context.registeredObject(for: item.objectID) === item)
            item.setValue("oat milk", forKey: "title")
            #expect(item.isUpdated)
            #expect(item.changedValues()["title"] as? String == "oat milk")
            #expect(item.committedValues(forKeys: ["title"])["title"] as? String == "milk")
            try stack.context.save()
            #expect(item.committedValues(forKeys: nil)["title"] as? String == "oat milk")
        }
    }

    @Test func savedGraphReadsBackFromAFreshCoordinator() throws {
        let stack = try TestStack(model: Models.allTypes())
        let date = Date(timeIntervalSinceReferenceDate: 123_456.5)
        let uuid = UUID()
        try stack.context.performAndWait {
            _ = stack.insert("Thing", [
                "name": "widget", "code": "ABC", "small": 5, "int32": Int32(-7), "int64": Int64.max,
                "decimal": Decimal(string: "12.75")!, "double": 2.5, "float": Float(1.25), "flag": true,
                "date": date, "data": Data([0, 1, 2]), "uuid": uuid, "url": URL(string: "https://example.com/a?b=c")!,
                "scratch": "not stored",
            ])
            try stack.context.save()
        }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait {
            let thing = try #require(try reopened.fetch("Thing").first)
            #expect(thing.isFault)
            #expect(thing.value(forKey: "name") as? String == "widget")
            #expect(!thing.isFault)
            #expect(thing.value(forKey: "small") as? Int16 == 5)
            #expect(thing.value(forKey: "int32") as? Int32 == -7)
            #expect(thing.value(forKey: "int64") as? Int64 == .max)
            #expect(thing.value(forKey: "decimal") as? Decimal == Decimal(string: "12.75"))
            #expect(thing.value(forKey: "double") as? Double == 2.5)
            #expect(thing.value(forKey: "float") as? Float == 1.25)
            #expect(thing.value(forKey: "flag") as? Bool == true)
            #expect(thing.value(forKey: "date") as? Date == date)
            #expect(thing.value(forKey: "data") as? Data == Data([0, 1, 2]))
            #expect(thing.value(forKey: "uuid") as? UUID == uuid)
            #expect(thing.value(forKey: "url") as? URL == URL(string: "https://example.com/a?b=c"))
            #expect(thing.value(forKey: "scratch") == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func validationFailuresAreReportedTogetherAndNothingIsWritten(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.allTypes(), kind: kind)
        try stack.context.performAndWait {
            _ = stack.insert("Thing", ["name": "kept", "code": "KEP"])
            try stack.context.save()
            let bad = stack.insert("Thing", ["name": "x", "code": "abc", "small": 70_000])
            let alsoBad = stack.insert("Thing", ["small": 500])
            let error = try #require(throws: CoreDataError.self) { try stack.context.save() }
            #expect(error.code == .validationMultipleErrors)
            let codes = Set(error.underlyingErrors.map(\.code))
            #expect(codes == [.validationStringTooShort, .validationStringPatternMatching, .validationWrongType,
                              .validationMissingMandatoryProperty, .validationNumberTooLarge])
            #expect(error.underlyingErrors.contains { $0.objectID == bad.objectID && $0.key == "small" })
            #expect(error.underlyingErrors.contains { $0.objectID == alsoBad.objectID && $0.key == "name" })
            // The context keeps its changes and temporary IDs, so they can be fixed and retried.
            #expect(bad.objectID.isTemporaryID && bad.isInserted && stack.context.hasChanges)
            #expect(bad.value(forKey: "small") as? Int == 70_000)
            let fresh = stack.newContext()
            let stored = try fresh.performAndWait { try fresh.count(for: FetchRequest<ManagedObject>(entityName: "Thing")) }
            #expect(stored == 1)
            bad.setValue("fixed", forKey: "name")
            bad.setValue("FIX", forKey: "code")
            bad.setValue(50, forKey: "small")
            stack.context.delete(alsoBad)
            try stack.context.save()
            #expect(!bad.objectID.isTemporaryID)
            #expect(bad.value(forKey: "small") as? Int16 == 50)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aUniquenessViolationThrowsAndLeavesTheStoreUnchanged(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.allTypes(), kind: kind)
        try stack.context.performAndWait {
            _ = stack.insert("Thing", ["name": "first", "code": "DUP"])
            try stack.context.save()
            let second = stack.insert("Thing", ["name": "second", "code": "DUP"])
            let other = stack.insert("Thing", ["name": "other", "code": "OTH"])
            let error = try #require(throws: CoreDataError.self) { try stack.context.save() }
            #expect(error.code == .constraintViolation)
            #expect(error.objectID == second.objectID)
            #expect(second.objectID.isTemporaryID && other.objectID.isTemporaryID)
            let fresh = stack.newContext()
            let stored = try fresh.performAndWait { try fresh.count(for: FetchRequest<ManagedObject>(entityName: "Thing")) }
            #expect(stored == 1)
            second.setValue("NEW", forKey: "code")
            try stack.context.save()
            #expect(try stack.context.count(for: FetchRequest<ManagedObject>(entityName: "Thing")) == 3)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func rollbackDiscardsInsertsChangesAndDeletes(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        try stack.context.performAndWait {
            let kept = stack.insert("Item", ["title": "kept"])
            let doomed = stack.insert("Item", ["title": "doomed"])
            try stack.context.save()
            kept.setValue("changed", forKey: "title")
            stack.context.delete(doomed)
            let added = stack.insert("Item", ["title": "added"])
            stack.context.rollback()
            #expect(!stack.context.hasChanges)
            #expect(kept.value(forKey: "title") as? String == "kept")
            #expect(!doomed.isDeleted)
            #expect(added.managedObjectContext == nil)
            #expect(try stack.context.count(for: FetchRequest<ManagedObject>(entityName: "Item")) == 2)
        }
    }

    @Test func resetForgetsEveryObject() throws {
        let stack = try TestStack(model: Models.nestedList())
        try stack.context.performAndWait {
            let item = stack.insert("Item", ["title": "a"])
            try stack.context.save()
            stack.context.reset()
            #expect(stack.context.registeredObjects.isEmpty)
            #expect(item.managedObjectContext == nil)
            let again = try #require(try stack.fetch("Item").first)
            #expect(again !== item)
            #expect(again.objectID == item.objectID)
        }
    }

    @Test func identityMapHoldsUnchangedObjectsWeakly() throws {
        let stack = try TestStack(model: Models.nestedList())
        try stack.context.performAndWait {
            for index in 0..<50 { _ = stack.insert("Item", ["title": "item \(index)"]) }
            try stack.context.save()
            stack.context.reset()
            do {
                let all = try stack.fetch("Item")
                #expect(all.count == 50)
                #expect(stack.context.registeredObjects.count == 50)
            }
            #expect(stack.context.registeredObjects.isEmpty)
            let changed = try #require(try stack.fetch("Item").first)
            changed.setValue("changed", forKey: "title")
            let id = changed.objectID
            _ = consume changed
            #expect(stack.context.registeredObjects.count == 1)
            #expect(stack.context.registeredObject(for: id)?.value(forKey: "title") as? String == "changed")
        }
    }

    @Test func obtainPermanentIDsBeforeSaving() throws {
        let stack = try TestStack(model: Models.nestedList())
        try stack.context.performAndWait {
            let parent = stack.insert("Item", ["title": "parent"])
            let child = stack.insert("Item", ["title": "child", "parent": parent])
            try stack.context.obtainPermanentIDs(for: [parent])
            #expect(!parent.objectID.isTemporaryID)
            #expect(child.objectID.isTemporaryID)
            #expect((child.value(forKey: "parent") as? ManagedObject) === parent)
            try stack.context.save()
            let reopened = try stack.reopened()
            try reopened.context.performAndWait {
                let loaded = try reopened.context.existingObject(with: parent.objectID)
                #expect((loaded.value(forKey: "children") as? Set<ManagedObject>)?.count == 1)
            }
        }
    }

    @Test func existingObjectThrowsForAMissingRow() throws {
        let stack = try TestStack(model: Models.nestedList())
        try stack.context.performAndWait {
            let item = stack.insert("Item", ["title": "gone"])
            try stack.context.save()
            let id = item.objectID
            stack.context.delete(item)
            try stack.context.save()
            let error = try #require(throws: CoreDataError.self) { try stack.context.existingObject(with: id) }
            #expect(error.code == .objectNotFound)
            #expect(error.objectID == id)
        }
    }
}

@Suite struct FetchKeyValidationTests {
    @Test(arguments: StoreKind.allCases)
    func unknownKeysInPredicatesAndSortsAreTypedErrors(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        try stack.context.performAndWait {
            // A pending insert makes the fetch evaluate in memory too.
            _ = stack.insert("Item", ["title": "pending"])
            for (format, key) in [("nope == 1", "nope"), ("parent.nope == 1", "parent.nope"), ("title == 'a' OR missing > 2", "missing")] {
                let error = try #require(throws: CoreDataError.self) { try stack.fetch("Item", format) }
                #expect(error.code == .invalidFetchRequest)
                #expect(error.key == key)
            }
            let error = try #require(throws: CoreDataError.self) { try stack.fetch("Item", sortedBy: "parent.unknown") }
            #expect(error.code == .invalidFetchRequest)
            let entityError = try #require(throws: CoreDataError.self) { try stack.fetch("Nope") }
            #expect(entityError.code == .invalidFetchRequest)
        }
    }
}
