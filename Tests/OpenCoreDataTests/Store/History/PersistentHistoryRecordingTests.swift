import Foundation
import Testing
import OpenCoreDataTestSupport
@testable import OpenCoreData

/// What a store with persistent history tracking records: one transaction per save or
/// batch request, in the same SQLite transaction as the data, with Core Data's fields.
@Suite struct PersistentHistoryRecordingTests {
    @Test func aSaveRecordsOneTransactionWithItsInsertsUpdatesAndDeletes() throws {
        let stack = try HistoryStack()
        let context = stack.context
        context.performAndWait { context.name = "editor" }
        let ids = try stack.insertAndSave(["Milk", "Eggs"], author: "app")
        try context.performAndWait {
            try context.existingObject(with: ids[0]).setValue("Oat milk", forKey: "title")
            context.delete(try context.existingObject(with: ids[1]))
            context.transactionAuthor = "cleanup"
            try context.save()
        }
        let transactions = try stack.history()
        #expect(transactions.count == 2)
        let (first, second) = (transactions[0], transactions[1])
        #expect(first.author == "app" && second.author == "cleanup")
        #expect(first.contextName == "editor")
        #expect(first.storeID == stack.store.identifier)
        // Core Data records the app's bundle ID and process; on Linux the program's name and pid.
        #expect(first.bundleID == (Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName))
        #expect(first.processID == String(ProcessInfo.processInfo.processIdentifier))
        #expect(second.transactionNumber > first.transactionNumber)
        #expect(second.timestamp >= first.timestamp)
        #expect(first.token == PersistentHistoryToken(storeIdentifier: stack.store.identifier, transactionNumber: first.transactionNumber))
        #expect(first.changes?.map(\.changeType) == [.insert, .insert])
        #expect(first.changes?.map(\.changedObjectID) == ids)
        #expect(first.changes?.allSatisfy { $0.tombstone == nil && $0.updatedProperties == nil } == true)
        let changes = try #require(second.changes)
        #expect(changes.map(\.changeType) == [.update, .delete])
        #expect(changes[0].changedObjectID == ids[0])
        #expect(changes[0].updatedProperties?.map(\.name) == ["title"])
        #expect(changes[1].changedObjectID == ids[1])
        // `title` is marked "Preserve After Deletion".
        #expect(changes[1].tombstone?["title"] as? String == "Eggs")
        #expect(try stack.store.backend.newestHistoryToken() == second.token)
    }

    @Test func anEmptySaveRecordsNothing() throws {
        let stack = try HistoryStack()
        let context = stack.context
        try context.performAndWait { try context.save() }
        #expect(try stack.history().isEmpty)
        #expect(try stack.store.backend.newestHistoryToken() == nil)
        #expect(try stack.rows(in: "ATRANSACTION") == 0)
    }

    @Test func aFailedSaveRecordsNothingAndKeepsTheChanges() throws {
        let model = Models.allTypes()
        let stack = try HistoryStack(model: model)
        let context = stack.context
        let error = try context.performAndWait {
            for _ in 0..<2 {
                let thing = EntityDescription.insertNewObject(forEntityName: "Thing", into: context)
                thing.setValue("Name", forKey: "name")
                thing.setValue("ABC", forKey: "code")   // the uniqueness constraint is on `code`
            }
            return try #require(throws: CoreDataError.self) { try context.save() }
        }
        #expect(error.code == .constraintViolation)
        #expect(context.performAndWait { context.hasChanges })
        #expect(try stack.rows(in: "ATRANSACTION") == 0)
        #expect(try stack.rows(in: "ACHANGE") == 0)
        #expect(try stack.rows(in: "ZTHING") == 0)
    }

    @Test func theTablesHaveCoreDataShape() throws {
        let stack = try HistoryStack()
        try stack.insertAndSave(["Milk"], author: "app")
        let inspector = SQLiteInspector(stack.url)
        func columns(_ table: String) throws -> [String] { try inspector.strings("SELECT name FROM pragma_table_info('\(table)')") }
        #expect(try columns("ATRANSACTION") == ["Z_PK", "Z_ENT", "Z_OPT", "ZAUTHORTS", "ZBUNDLEIDTS", "ZCONTEXTNAMETS", "ZPROCESSIDTS",
                                                "ZTIMESTAMP", "ZAUTHOR", "ZBUNDLEID", "ZCONTEXTNAME", "ZPROCESSID", "ZQUERYGEN"])
        #expect(try columns("ACHANGE") == ["Z_PK", "Z_ENT", "Z_OPT", "ZCHANGETYPE", "ZENTITY", "ZENTITYPK", "ZTRANSACTIONID", "ZCOLUMNS", "ZTOMBSTONE0"])
        #expect(try columns("ATRANSACTIONSTRING") == ["Z_PK", "Z_ENT", "Z_OPT", "ZNAME"])
        #expect(try inspector.strings("SELECT DISTINCT Z_ENT FROM ACHANGE") == ["16001"])
        #expect(try inspector.strings("SELECT Z_ENT FROM ATRANSACTION") == ["16002"])
        #expect(try inspector.strings("SELECT DISTINCT Z_ENT FROM ATRANSACTIONSTRING") == ["16003"])
        // Strings are stored once and referred to by key, as in Core Data.
        #expect(try inspector.strings("SELECT s.ZNAME FROM ATRANSACTION t JOIN ATRANSACTIONSTRING s ON s.Z_PK = t.ZAUTHORTS") == ["app"])
        #expect(try inspector.strings("SELECT ZCHANGETYPE || ' ' || ZENTITY || ' ' || ZENTITYPK FROM ACHANGE") == ["0 1 1"])
    }

    @Test func withoutTrackingASaveRunsNoHistoryStatementAndTheFileHasNoHistoryTables() throws {
        let stack = try HistoryStack(tracking: nil)
        let context = stack.context
        let sql = try stack.coordinator.capturingSQL {
            try context.performAndWait {
                EntityDescription.insertNewObject(forEntityName: "Item", into: context).setValue("Milk", forKey: "title")
                try context.save()
            }
        }
        #expect(!sql.isEmpty)
        #expect(sql.allSatisfy { !$0.contains("ATRANSACTION") && !$0.contains("ACHANGE") })
        #expect(try SQLiteInspector(stack.url).strings("SELECT name FROM sqlite_master WHERE name LIKE 'A%'").isEmpty)
        #expect(!stack.store.recordsHistory)
        let error = try #require(throws: CoreDataError.self) { try stack.history() }
        #expect(error.code == .storeUnsupportedRequest)
    }

    @Test func theInMemoryStoreRefusesHistoryTracking() throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: Models.nestedList())
        let error = try #require(throws: CoreDataError.self) {
            try coordinator.addPersistentStore(type: .inMemory, options: [PersistentHistoryTrackingKey: true])
        }
        #expect(error.code == .storeOpenFailed)
        #expect(error.key == PersistentHistoryTrackingKey)
        #expect(coordinator.persistentStores.isEmpty)
        // Without the option it opens as before.
        try coordinator.addPersistentStore(type: .inMemory, options: [PersistentHistoryTrackingKey: false])
    }

    /// Core Data records a transaction when a context saves to the store, with that
    /// context's `transactionAuthor` ("the author for the context … used as an identifier
    /// in persistent history transactions", NSManagedObjectContext.transactionAuthor): a
    /// child's save into its parent writes nothing, and the parent's save records one
    /// transaction under the parent's author and name.
    @Test func aNestedSaveRecordsOneTransactionUnderTheParentsAuthor() throws {
        let stack = try HistoryStack()
        let parent = stack.context
        parent.performAndWait {
            parent.name = "root"
            parent.transactionAuthor = "root-author"
        }
        let child = ManagedObjectContext(concurrencyType: .privateQueue)
        child.parent = parent
        child.name = "scratch"
        child.transactionAuthor = "child-author"
        try child.performAndWait {
            EntityDescription.insertNewObject(forEntityName: "Item", into: child).setValue("Milk", forKey: "title")
            try child.save()
        }
        #expect(try stack.history().isEmpty)
        try parent.performAndWait { try parent.save() }
        let transactions = try stack.history()
        #expect(transactions.count == 1)
        #expect(transactions.first?.author == "root-author")
        #expect(transactions.first?.contextName == "root")
        #expect(transactions.first?.changes?.map(\.changeType) == [.insert])
    }

    @Test func batchRequestsRecordOneTransactionEach() throws {
        let stack = try HistoryStack()
        let context = stack.context
        let kept = try stack.insertAndSave(["Keep"])[0]
        let inserted = try context.performAndWait {
            context.transactionAuthor = "importer"
            let insert = BatchInsertRequest(entityName: "Item", objects: [["title": "A", "order": Int64(1)], ["title": "B", "order": Int64(2)]])
            insert.resultType = .objectIDs
            return try #require(context.execute(insert).result as? [ManagedObjectID])
        }
        try context.performAndWait {
            context.transactionAuthor = "renumber"
            let update = BatchUpdateRequest(entityName: "Item")
            update.predicate = try CDPredicate(format: "order > 0")
            update.propertiesToUpdate = ["order": Int64(9)]
            _ = try context.execute(update)
            context.transactionAuthor = "purge"
            let matching = FetchRequest<ManagedObject>(entityName: "Item")
            matching.predicate = try CDPredicate(format: "order == 9")
            _ = try context.execute(BatchDeleteRequest(fetchRequest: matching))
        }
        let transactions = try stack.history().dropFirst()
        #expect(transactions.map(\.author) == ["importer", "renumber", "purge"])
        let all = transactions.map { $0.changes ?? [] }
        #expect(all[0].map(\.changeType) == [.insert, .insert] && Set(all[0].map(\.changedObjectID)) == Set(inserted))
        #expect(all[1].map(\.changeType) == [.update, .update] && Set(all[1].map(\.changedObjectID)) == Set(inserted))
        #expect(all[1].allSatisfy { $0.updatedProperties?.map(\.name) == ["order"] })
        // Each deleted row is recorded as a delete, with its tombstone.
        #expect(all[2].map(\.changeType) == [.delete, .delete] && Set(all[2].map(\.changedObjectID)) == Set(inserted))
        #expect(Set(all[2].compactMap { $0.tombstone?["title"] as? String }) == ["A", "B"])
        #expect(!all.joined().contains { $0.changedObjectID == kept })
    }

    /// Without history, a batch delete of an entity no relationship touches is one
    /// `DELETE` that reads no row; with history it must read and record every row.
    @Test func aBatchDeleteWithoutRelationshipsStillRecordsEveryRow() throws {
        let stack = try HistoryStack(model: Models.allTypes())
        let context = stack.context
        let ids = try context.performAndWait {
            let things = (0..<3).map { index in
                let thing = EntityDescription.insertNewObject(forEntityName: "Thing", into: context)
                thing.setValue("Thing \(index)", forKey: "name")
                return thing
            }
            try context.save()
            return things.map(\.objectID)
        }
        let sql = try stack.coordinator.capturingSQL {
            let count: Int? = try context.performAndWait {
                let delete = BatchDeleteRequest(fetchRequest: FetchRequest<ManagedObject>(entityName: "Thing"))
                delete.resultType = .resultTypeCount
                return try context.execute(delete).result as? Int
            }
            #expect(count == 3)
        }
        #expect(sql.contains { $0.hasPrefix("INSERT INTO ACHANGE") })
        let deletes = try #require(try stack.history().last?.changes)
        #expect(deletes.map(\.changeType) == [.delete, .delete, .delete])
        #expect(Set(deletes.map(\.changedObjectID)) == Set(ids))
    }

    /// A batch delete clears to-one references to the rows it deletes; the rows that
    /// referred to them changed, and are recorded as updates of that relationship.
    @Test func aBatchDeleteRecordsTheRowsWhoseReferenceItCleared() throws {
        let stack = try HistoryStack(model: Models.notes())
        let context = stack.context
        let (note, folder) = try context.performAndWait {
            let note = EntityDescription.insertNewObject(forEntityName: "Note", into: context)
            let folder = EntityDescription.insertNewObject(forEntityName: "Folder", into: context)
            folder.setValue(note, forKey: "pinned")     // no inverse, no-action rule
            try context.save()
            return (note.objectID, folder.objectID)
        }
        try context.performAndWait { _ = try context.execute(BatchDeleteRequest(objectIDs: [note])) }
        let changes = try #require(try stack.history().last?.changes)
        #expect(changes.map(\.changeType) == [.delete, .update])
        #expect(changes.map(\.changedObjectID) == [note, folder])
        #expect(changes[1].updatedProperties?.map(\.name) == ["pinned"])
    }

    /// A batch delete removes the deleted rows from many-to-many relationships; the rows on
    /// the other side lost a member, and are recorded as updates of their relationship.
    @Test func aBatchDeleteRecordsTheRowsThatLostAManyToManyMember() throws {
        let stack = try HistoryStack(model: Models.notes())
        let context = stack.context
        let (doomed, kept, tags) = try context.performAndWait {
            let doomed = EntityDescription.insertNewObject(forEntityName: "Note", into: context)
            let kept = EntityDescription.insertNewObject(forEntityName: "Note", into: context)
            let tags = (0..<2).map { _ in EntityDescription.insertNewObject(forEntityName: "Tag", into: context) }
            doomed.setValue(Set(tags), forKey: "tags")
            kept.setValue(Set([tags[0]]), forKey: "tags")
            try context.save()
            return (doomed.objectID, kept.objectID, tags.map(\.objectID))
        }
        // Deleting a note: both its tags lost a member (their inverse, `notes`).
        try context.performAndWait { _ = try context.execute(BatchDeleteRequest(objectIDs: [doomed])) }
        let changes = try #require(try stack.history().last?.changes)
        #expect(changes.first?.changeType == .delete && changes.first?.changedObjectID == doomed)
        let updates = changes.dropFirst()
        #expect(updates.allSatisfy { $0.changeType == .update && $0.updatedProperties?.map(\.name) == ["notes"] })
        #expect(Set(updates.map(\.changedObjectID)) == Set(tags))
        // Deleting a tag: the note still holding it lost a member (`tags`).
        try context.performAndWait { _ = try context.execute(BatchDeleteRequest(objectIDs: [tags[0]])) }
        let second = try #require(try stack.history().last?.changes)
        #expect(second.map(\.changeType) == [.delete, .update])
        #expect(second.map(\.changedObjectID) == [tags[0], kept])
        #expect(second.last?.updatedProperties?.map(\.name) == ["tags"])
    }
}
