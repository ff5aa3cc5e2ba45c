import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// A model with two configurations — "Main" (accounts) and "Logs" (log entries) — and an
/// `Event` entity both hold; a relationship links accounts and logs across them.
private func configuredModel() -> ManagedObjectModel {
    let account = EntityDescription(name: "Account", properties: [
        AttributeDescription(name: "name", type: .string, isOptional: false, defaultValue: ""),
    ])
    account.uniquenessConstraints = [["name"]]
    let log = EntityDescription(name: "Log", properties: [
        AttributeDescription(name: "message", type: .string),
        AttributeDescription(name: "level", type: .integer64, isOptional: false, defaultValue: Int64(0)),
    ])
    let event = EntityDescription(name: "Event", properties: [
        AttributeDescription(name: "title", type: .string),
        AttributeDescription(name: "rank", type: .integer64, isOptional: false, defaultValue: Int64(0)),
    ])
    let logs = RelationshipDescription(name: "logs", destination: log, toMany: true, deleteRule: .nullify)
    let owner = RelationshipDescription(name: "account", destination: account, deleteRule: .nullify)
    logs.setInverse(owner)
    account.properties += [logs]
    log.properties += [owner]
    let model = ManagedObjectModel(entities: [account, log, event])
    model.configurations = ["Main": ["Account", "Event"], "Logs": ["Log", "Event"]]
    return model
}

/// One coordinator with a "Main" SQLite store and a "Logs" store of the given kind.
private final class TwoStores {
    let folder: TemporaryFolder
    let model: ManagedObjectModel
    let coordinator: PersistentStoreCoordinator
    let main: PersistentStore
    let logs: PersistentStore
    let context: ManagedObjectContext
    let logsKind: StoreKind

    init(logs kind: StoreKind, folder: TemporaryFolder = TemporaryFolder(), model: ManagedObjectModel = configuredModel()) throws {
        self.folder = folder
        self.model = model
        logsKind = kind
        coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        main = try coordinator.addPersistentStore(type: .sqlite, configuration: "Main", at: folder.file("main.sqlite"))
        logs = try coordinator.addPersistentStore(type: kind.type, configuration: "Logs", at: kind == .sqlite ? folder.file("logs.sqlite") : nil)
        context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = coordinator
    }

    /// The same files under a new coordinator (an in-memory store starts empty).
    func reopened() throws -> TwoStores { try TwoStores(logs: logsKind, folder: folder) }

    /// Contexts handed out, kept alive as long as the stack so their objects stay readable.
    private var contexts: [ManagedObjectContext] = []

    func newContext() -> ManagedObjectContext {
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = coordinator
        contexts.append(context)
        return context
    }

    @discardableResult
    func insert(_ entity: String, _ values: [String: Any?], into context: ManagedObjectContext? = nil) -> ManagedObject {
        let object = EntityDescription.insertNewObject(forEntityName: entity, into: context ?? self.context)
        for (key, value) in values { object.setValue(value, forKey: key) }
        return object
    }

    func fetch(_ entity: String, sortedBy key: String? = nil, ascending: Bool = true, offset: Int = 0, limit: Int = 0, in context: ManagedObjectContext? = nil) throws -> [ManagedObject] {
        try (context ?? newContext()).fetch(request(entity, sortedBy: key, ascending: ascending, offset: offset, limit: limit))
    }

    func request<T>(_ entity: String, sortedBy key: String? = nil, ascending: Bool = true, offset: Int = 0, limit: Int = 0) -> FetchRequest<T> {
        let request = FetchRequest<T>(entityName: entity)
        if let key { request.sortDescriptors = [CDSortDescriptor(key: key, ascending: ascending)] }
        request.fetchOffset = offset
        request.fetchLimit = limit
        return request
    }

    /// Six events, ranks 1…6: odd ranks in the main store (the first holding `Event`),
    /// even ones assigned to the logs store.
    func insertEvents() throws {
        for rank in [5, 2, 1, 6, 3, 4] {
            let event = insert("Event", ["title": "e\(rank)", "rank": Int64(rank)])
            if rank % 2 == 0 { try context.assign(event, to: logs) }
        }
        try context.save()
    }
}

@Suite struct MultipleStoresTests {
    @Test(arguments: StoreKind.allCases)
    func eachObjectIsSavedToTheStoreHoldingItsEntity(logsKind: StoreKind) throws {
        let stores = try TwoStores(logs: logsKind)
        let account = stores.insert("Account", ["name": "alice"])
        let log = stores.insert("Log", ["message": "started", "level": Int64(1)])
        try stores.context.save()
        #expect(account.objectID.storeIdentifier == stores.main.identifier)
        #expect(log.objectID.storeIdentifier == stores.logs.identifier)

        #expect(try stores.fetch("Account").map { $0.value(forKey: "name") as? String } == ["alice"])
        #expect(try stores.fetch("Log").map { $0.value(forKey: "message") as? String } == ["started"])
        let fresh = stores.newContext()
        #expect(try fresh.existingObject(with: log.objectID).value(forKey: "level") as? Int64 == 1)

        // Each file has only its configuration's tables.
        let mainTables = try SQLiteInspector(stores.folder.file("main.sqlite")).strings("SELECT name FROM sqlite_master WHERE type = 'table'")
        #expect(mainTables.contains("ZACCOUNT") && mainTables.contains("ZEVENT") && !mainTables.contains("ZLOG"))
        #expect(try SQLiteInspector(stores.folder.file("main.sqlite")).strings("SELECT count(*) FROM ZACCOUNT") == ["1"])
        if logsKind == .sqlite {
            let logTables = try SQLiteInspector(stores.folder.file("logs.sqlite")).strings("SELECT name FROM sqlite_master WHERE type = 'table'")
            #expect(logTables.contains("ZLOG") && !logTables.contains("ZACCOUNT"))
            #expect(try SQLiteInspector(stores.folder.file("logs.sqlite")).strings("SELECT ZMESSAGE FROM ZLOG") == ["started"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aFetchSpanningStoresIsMergedSortedWindowedAndCounted(logsKind: StoreKind) throws {
        let stores = try TwoStores(logs: logsKind)
        try stores.insertEvents()
        let ranks = { (objects: [ManagedObject]) in objects.map { $0.value(forKey: "rank") as? Int64 ?? -1 } }

        #expect(try ranks(stores.fetch("Event", sortedBy: "rank")) == [1, 2, 3, 4, 5, 6])
        #expect(try ranks(stores.fetch("Event", sortedBy: "rank", ascending: false)) == [6, 5, 4, 3, 2, 1])
        #expect(try ranks(stores.fetch("Event", sortedBy: "rank", offset: 1, limit: 3)) == [2, 3, 4])
        #expect(try ranks(stores.fetch("Event", sortedBy: "title", ascending: false, offset: 4, limit: 5)) == [2, 1])
        #expect(try Set(ranks(stores.fetch("Event"))) == [1, 2, 3, 4, 5, 6])

        let context = stores.newContext()
        let idRequest: FetchRequest<ManagedObjectID> = stores.request("Event", sortedBy: "rank", offset: 2, limit: 2)
        idRequest.resultType = .managedObjectIDResultType
        let ids = try context.fetch(idRequest)
        #expect(ids.map { try? context.existingObject(with: $0).value(forKey: "rank") as? Int64 } == [3, 4])
        #expect(Set(ids.compactMap(\.storeIdentifier)) == [stores.main.identifier, stores.logs.identifier])

        #expect(try context.count(for: stores.request("Event") as FetchRequest<ManagedObject>) == 6)
        #expect(try context.count(for: stores.request("Event", offset: 2, limit: 3) as FetchRequest<ManagedObject>) == 3)
        #expect(try context.count(for: stores.request("Event", offset: 5, limit: 3) as FetchRequest<ManagedObject>) == 1)
        let predicate: FetchRequest<ManagedObject> = stores.request("Event")
        predicate.predicate = try CDPredicate(format: "rank >= 3")
        #expect(try context.count(for: predicate) == 4)
    }

    @Test(arguments: StoreKind.allCases)
    func aBatchFaultingFetchSpansStores(logsKind: StoreKind) throws {
        let stores = try TwoStores(logs: logsKind)
        try stores.insertEvents()
        let request: FetchRequest<ManagedObject> = stores.request("Event", sortedBy: "rank", offset: 1)
        request.fetchBatchSize = 2
        let context = stores.newContext()
        let batched = try context.fetchResults(request)
        #expect(batched.map { $0.value(forKey: "rank") as? Int64 } == [2, 3, 4, 5, 6])
        #expect(context.lastFaultError == nil)

        // With unsaved changes, pending objects are merged in too.
        let pending = stores.insert("Event", ["title": "e0", "rank": Int64(0)], into: context)
        try context.assign(pending, to: stores.logs)
        let withPending = try context.fetchResults(stores.request("Event", sortedBy: "rank") as FetchRequest<ManagedObject>)
        #expect(withPending.map { $0.value(forKey: "rank") as? Int64 } == [0, 1, 2, 3, 4, 5, 6])
    }

    @Test(arguments: StoreKind.allCases)
    func theSQLiteStoresKeepTheirObjectsWhenReopened(logsKind: StoreKind) throws {
        let stores = try TwoStores(logs: logsKind)
        stores.insert("Account", ["name": "alice"])
        stores.insert("Log", ["message": "started"])
        try stores.insertEvents()
        let reopened = try stores.reopened()
        #expect(reopened.main.identifier == stores.main.identifier)
        #expect(try reopened.fetch("Account").count == 1)
        let ranks = try reopened.fetch("Event", sortedBy: "rank").map { $0.value(forKey: "rank") as? Int64 }
        guard logsKind == .sqlite else {
            // A new in-memory store starts empty; the main file keeps its events.
            #expect(try reopened.fetch("Log").isEmpty)
            #expect(ranks == [1, 3, 5])
            return
        }
        #expect(reopened.logs.identifier == stores.logs.identifier)
        #expect(try reopened.fetch("Log").map { $0.value(forKey: "message") as? String } == ["started"])
        #expect(ranks == [1, 2, 3, 4, 5, 6])
        // New rows continue each store's own primary keys.
        reopened.insert("Log", ["message": "again"])
        try reopened.context.save()
        #expect(try reopened.fetch("Log").compactMap(\.objectID.primaryKey).sorted() == [1, 2])
    }

    @Test func aStoreReopenedWithAnotherConfigurationGetsTheTablesItLacks() throws {
        let stores = try TwoStores(logs: .sqlite)
        stores.insert("Account", ["name": "alice"])
        try stores.context.save()
        let whole = try TestStack(model: configuredModel(), kind: .sqlite, folder: stores.folder, file: "main.sqlite")
        #expect(whole.coordinator.persistentStores[0].identifier == stores.main.identifier)
        _ = whole.insert("Log", ["message": "now here"])
        try whole.context.save()
        #expect(try whole.fetch("Log").count == 1)
        #expect(try whole.fetch("Account").count == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func aRelationshipIntoAnotherStoreReadsAndPrefetchesAsEmpty(logsKind: StoreKind) throws {
        let stores = try TwoStores(logs: logsKind)
        stores.insert("Account", ["name": "alice"])
        stores.insert("Log", ["message": "started"])
        try stores.context.save()
        let request = FetchRequest<ManagedObject>(entityName: "Account")
        request.relationshipKeyPathsForPrefetching = ["logs"]
        let context = stores.newContext()
        let account = try #require(try context.fetch(request).first)
        #expect((account.value(forKey: "logs") as? Set<ManagedObject>)?.isEmpty == true)
        let log = try #require(try stores.fetch("Log", in: context).first)
        #expect(log.value(forKey: "account") == nil)
        #expect(context.lastFaultError == nil)
    }

    @Test func aKeyPathIntoAnotherStoresEntityIsATypedError() throws {
        let stores = try TwoStores(logs: .sqlite)
        stores.insert("Log", ["message": "started"])
        try stores.context.save()
        let request = FetchRequest<ManagedObject>(entityName: "Log")
        request.predicate = try CDPredicate(format: "account.name == 'alice'")
        #expect(throws: CoreDataError.self) { try stores.newContext().fetch(request) }
    }

    @Test func aStoreReopenedWithAChangedModelIsStillRefused() throws {
        let stores = try TwoStores(logs: .sqlite)
        stores.insert("Log", ["message": "started"])
        try stores.context.save()
        let changed = configuredModel()
        changed.entitiesByName["Log"]?.properties.append(AttributeDescription(name: "extra", type: .string))
        let coordinator = PersistentStoreCoordinator(managedObjectModel: changed)
        let error = try #require(throws: CoreDataError.self) {
            try coordinator.addPersistentStore(type: .sqlite, configuration: "Logs", at: stores.folder.file("logs.sqlite"))
        }
        #expect(error.code == .incompatibleModel)
    }

    @Test(arguments: StoreKind.allCases)
    func aRelationshipAcrossStoresIsAValidationErrorAndNothingIsWritten(logsKind: StoreKind) throws {
        let stores = try TwoStores(logs: logsKind)
        let account = stores.insert("Account", ["name": "alice"])
        let log = stores.insert("Log", ["message": "started"])
        log.setValue(account, forKey: "account")
        let error = try #require(throws: CoreDataError.self) { try stores.context.save() }
        #expect(error.code == .validationMultipleErrors)
        #expect(error.underlyingErrors.map(\.code) == [.externalRelationship, .externalRelationship])
        #expect(Set(error.underlyingErrors.compactMap(\.key)) == ["account", "logs"])
        #expect(log.objectID.isTemporaryID && account.objectID.isTemporaryID)
        #expect(try stores.fetch("Account").isEmpty)
        #expect(try stores.fetch("Log").isEmpty)

        // Collected with the other validation errors.
        account.setValue(nil, forKey: "name")
        let both = try #require(throws: CoreDataError.self) { try stores.context.save() }
        #expect(Set(both.underlyingErrors.map(\.code)) == [.externalRelationship, .validationMissingMandatoryProperty])

        // Without the link, the save goes through.
        account.setValue("alice", forKey: "name")
        log.setValue(nil, forKey: "account")
        try stores.context.save()
        #expect(try stores.fetch("Log").count == 1)

        // A saved object linked later is refused the same way.
        log.setValue(account, forKey: "account")
        let later = try #require(throws: CoreDataError.self) { try stores.context.save() }
        #expect(later.underlyingErrors.map(\.code) == [.externalRelationship, .externalRelationship])
    }

    @Test(arguments: StoreKind.allCases)
    func batchRequestsAndDictionaryFetchesSpanningStoresAreRefused(logsKind: StoreKind) throws {
        let stores = try TwoStores(logs: logsKind)
        try stores.insertEvents()
        let update = BatchUpdateRequest(entityName: "Event")
        update.propertiesToUpdate = ["title": "x"]
        let refused: [PersistentStoreRequest] = [
            update,
            BatchDeleteRequest(fetchRequest: FetchRequest<ManagedObject>(entityName: "Event")),
            BatchInsertRequest(entityName: "Event", objects: [["title": "new"]]),
            BatchDeleteRequest(objectIDs: try stores.fetch("Event").map(\.objectID)),
        ]
        for request in refused {
            let error = try #require(throws: CoreDataError.self) { try stores.context.execute(request) }
            #expect(error.code == .storeUnsupportedRequest, "\(type(of: request))")
        }
        let dictionaries = FetchRequest<NSDictionary>(entityName: "Event")
        dictionaries.resultType = .dictionaryResultType
        let error = try #require(throws: CoreDataError.self) { try stores.context.fetchDictionaries(dictionaries) }
        #expect(error.code == .storeUnsupportedRequest)
        #expect(try stores.fetch("Event", sortedBy: "rank").map { $0.value(forKey: "title") as? String } == ["e1", "e2", "e3", "e4", "e5", "e6"])
    }

    @Test(arguments: StoreKind.allCases)
    func batchRequestsAndDictionaryFetchesOfOneStoreWork(logsKind: StoreKind) throws {
        let stores = try TwoStores(logs: logsKind)
        stores.insert("Account", ["name": "alice"])
        try stores.context.save()
        let insert = BatchInsertRequest(entityName: "Log", objects: [["message": "a", "level": Int64(1)], ["message": "b", "level": Int64(2)]])
        insert.resultType = .objectIDs
        let inserted = try #require(try stores.context.execute(insert) as? BatchInsertResult)
        let ids = try #require(inserted.result as? [ManagedObjectID])
        #expect(ids.allSatisfy { $0.storeIdentifier == stores.logs.identifier })

        let update = BatchUpdateRequest(entityName: "Log")
        update.propertiesToUpdate = ["level": Int64(9)]
        update.resultType = .updatedObjectsCountResultType
        #expect((try stores.context.execute(update) as? BatchUpdateResult)?.result as? Int == 2)
        #expect(try stores.fetch("Log").map { $0.value(forKey: "level") as? Int64 } == [9, 9])

        let dictionaries = FetchRequest<NSDictionary>(entityName: "Account")
        dictionaries.resultType = .dictionaryResultType
        dictionaries.propertiesToFetch = ["name"]
        #expect(try stores.context.fetchDictionaries(dictionaries).map { $0["name"] as? String } == ["alice"])

        let delete = BatchDeleteRequest(fetchRequest: FetchRequest<ManagedObject>(entityName: "Log"))
        delete.resultType = .resultTypeCount
        #expect((try stores.context.execute(delete) as? BatchDeleteResult)?.result as? Int == 2)
        #expect(try stores.fetch("Log").isEmpty)
        #expect(try stores.fetch("Account").count == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func aFailureInTheFirstStoreLeavesEveryStoreUnchanged(logsKind: StoreKind) throws {
        let stores = try TwoStores(logs: logsKind)
        stores.insert("Account", ["name": "alice"])
        try stores.context.save()
        let context = stores.newContext()
        stores.insert("Account", ["name": "alice"], into: context)
        let log = stores.insert("Log", ["message": "never"], into: context)
        let error = try #require(throws: CoreDataError.self) { try context.save() }
        #expect(error.code == .constraintViolation)
        #expect(try stores.fetch("Log").isEmpty)
        #expect(try stores.fetch("Account").count == 1)
        #expect(log.objectID.isTemporaryID && context.hasChanges)
    }

    @Test(arguments: StoreKind.allCases)
    func aFailureInALaterStoreReportsTheCommittedStores(logsKind: StoreKind) throws {
        // Logs store first this time, so the main store (with the constraint) fails second.
        let folder = TemporaryFolder()
        let model = configuredModel()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let logs = try coordinator.addPersistentStore(type: logsKind.type, configuration: "Logs", at: logsKind == .sqlite ? folder.file("logs.sqlite") : nil)
        try coordinator.addPersistentStore(type: .sqlite, configuration: "Main", at: folder.file("main.sqlite"))
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = coordinator
        EntityDescription.insertNewObject(forEntityName: "Account", into: context).setValue("alice", forKey: "name")
        let first = EntityDescription.insertNewObject(forEntityName: "Log", into: context)
        try context.save()
        first.setValue("updated", forKey: "message")
        let duplicate = EntityDescription.insertNewObject(forEntityName: "Account", into: context)
        duplicate.setValue("alice", forKey: "name")
        let log = EntityDescription.insertNewObject(forEntityName: "Log", into: context)
        log.setValue("committed", forKey: "message")
        let error = try #require(throws: CoreDataError.self) { try context.save() }
        #expect(error.code == .storeIncompleteSave)
        #expect(error.message.contains(logs.description))
        #expect(error.underlyingErrors.map(\.code) == [.constraintViolation])

        // The committed store's object is saved; the other keeps its changes.
        #expect(log.objectID.storeIdentifier == logs.identifier && !log.hasChanges && !first.hasChanges)
        #expect(duplicate.objectID.isTemporaryID && duplicate.hasChanges)
        #expect(context.insertedObjects == [duplicate])
        let reader = ManagedObjectContext(concurrencyType: .privateQueue)
        reader.persistentStoreCoordinator = coordinator
        let messages = try reader.fetch(FetchRequest<ManagedObject>(entityName: "Log")).map { $0.value(forKey: "message") as? String }
        #expect(Set(messages) == ["updated", "committed"])

        // Saving again after fixing the cause writes only what is left.
        duplicate.setValue("bob", forKey: "name")
        try context.save()
        #expect(try reader.count(for: FetchRequest<ManagedObject>(entityName: "Log")) == 2)
        #expect(try reader.count(for: FetchRequest<ManagedObject>(entityName: "Account")) == 2)
    }

    @Test func newObjectsGoToTheFirstStoreHoldingTheirEntityUnlessAssigned() throws {
        let stores = try TwoStores(logs: .inMemory)
        let first = stores.insert("Event", ["rank": Int64(1)])
        let second = stores.insert("Event", ["rank": Int64(2)])
        try stores.context.assign(second, to: stores.logs)
        #expect(second.objectID.storeIdentifier == stores.logs.identifier)
        try stores.context.save()
        #expect(first.objectID.storeIdentifier == stores.main.identifier)
        #expect(second.objectID.storeIdentifier == stores.logs.identifier)

        let account = stores.insert("Account", ["name": "bob"])
        let error = try #require(throws: CoreDataError.self) { try stores.context.assign(account, to: stores.logs) }
        #expect(error.code == .storeOperationFailed)
        let saved = try #require(throws: CoreDataError.self) { try stores.context.assign(first, to: stores.logs) }
        #expect(saved.code == .storeOperationFailed)
    }

    @Test func anUpdateAndADeleteGoToTheirObjectsStores() throws {
        let stores = try TwoStores(logs: .sqlite)
        try stores.insertEvents()
        let events = try stores.fetch("Event", sortedBy: "rank", in: stores.context)
        events[0].setValue("first", forKey: "title")
        events[1].setValue("second", forKey: "title")
        stores.context.delete(events[2])
        stores.context.delete(events[3])
        try stores.context.save()
        let titles = try stores.fetch("Event", sortedBy: "rank").map { $0.value(forKey: "title") as? String }
        #expect(titles == ["first", "second", "e5", "e6"])
        #expect(try SQLiteInspector(stores.folder.file("logs.sqlite")).strings("SELECT ZTITLE FROM ZEVENT ORDER BY ZRANK") == ["second", "e6"])
    }
}

/// Optimistic locking across stores: each store checks its rows' versions in its own
/// transaction, so a conflict in a later store leaves the earlier stores committed.
@Suite struct MultipleStoresConflictTests {
    @Test(arguments: StoreKind.allCases)
    func aConflictInALaterStoreIsAnIncompleteSaveListingTheConflicts(logsKind: StoreKind) throws {
        let stores = try TwoStores(logs: logsKind)
        let account = stores.insert("Account", ["name": "alice"])
        let log = stores.insert("Log", ["message": "first"])
        try stores.context.save()

        let other = stores.newContext()
        let otherLog = try other.existingObject(with: log.objectID)
        otherLog.setValue("theirs", forKey: "message")
        try other.save()

        account.setValue("alicia", forKey: "name")
        log.setValue("mine", forKey: "message")
        let error = try #require(throws: CoreDataError.self) { try stores.context.save() }
        #expect(error.code == .storeIncompleteSave)
        #expect(error.underlyingErrors.map(\.code) == [.mergeConflict])
        #expect(error.conflicts.map(\.sourceObjectID) == [log.objectID])
        #expect(error.conflicts.first?.persistedSnapshot?["message"] == .string("theirs"))
        // The main store committed the account; the log keeps its change for a retry.
        #expect(!account.hasChanges && log.hasChanges)
        let reader = stores.newContext()
        #expect(try reader.existingObject(with: log.objectID).value(forKey: "message") as? String == "theirs")
        #expect(try reader.existingObject(with: account.objectID).value(forKey: "name") as? String == "alicia")
    }

    @Test(arguments: StoreKind.allCases)
    func aConflictInTheFirstStoreWritesNothing(logsKind: StoreKind) throws {
        let stores = try TwoStores(logs: logsKind)
        let account = stores.insert("Account", ["name": "alice"])
        let log = stores.insert("Log", ["message": "first"])
        try stores.context.save()

        let other = stores.newContext()
        try other.existingObject(with: account.objectID).setValue("bob", forKey: "name")
        try other.save()

        account.setValue("alicia", forKey: "name")
        log.setValue("mine", forKey: "message")
        let error = try #require(throws: CoreDataError.self) { try stores.context.save() }
        #expect(error.code == .mergeConflict)
        #expect(account.hasChanges && log.hasChanges)
        let reader = stores.newContext()
        #expect(try reader.existingObject(with: log.objectID).value(forKey: "message") as? String == "first")
    }
}
