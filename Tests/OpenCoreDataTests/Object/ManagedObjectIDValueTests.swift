import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// One coordinator on a nested-list model with two stores that both hold `Item`: a SQLite
/// file ("a") and a second store of the given kind ("b"), each given one saved item, so
/// that both items have primary key 1.
private final class TwoItemStores {
    let folder = TemporaryFolder()
    let model: ManagedObjectModel
    let coordinator: PersistentStoreCoordinator
    let first: PersistentStore
    let second: PersistentStore
    let context: ManagedObjectContext
    let inFirst: ManagedObjectID
    let inSecond: ManagedObjectID

    init(_ kind: StoreKind, model: ManagedObjectModel = Models.nestedList()) throws {
        self.model = model
        coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        first = try coordinator.addPersistentStore(type: .sqlite, at: folder.file("a.sqlite"))
        second = try coordinator.addPersistentStore(type: kind.type, at: kind == .sqlite ? folder.file("b.sqlite") : nil)
        context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = coordinator
        (inFirst, inSecond) = try context.performAndWait { [context, second] in
            let a = EntityDescription.insertNewObject(forEntityName: "Item", into: context)
            a.setValue("in a", forKey: "title")
            let b = EntityDescription.insertNewObject(forEntityName: "Item", into: context)
            b.setValue("in b", forKey: "title")
            try context.assign(b, to: second)
            try context.save()
            return (a.objectID, b.objectID)
        }
    }

    /// A new coordinator on the same model and the SQLite file "a".
    func reopenedFirst(model: ManagedObjectModel? = nil) throws -> PersistentStoreCoordinator {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model ?? self.model)
        try coordinator.addPersistentStore(type: .sqlite, at: folder.file("a.sqlite"))
        return coordinator
    }
}

private func title(of id: ManagedObjectID, in coordinator: PersistentStoreCoordinator) throws -> String? {
    let context = ManagedObjectContext(concurrencyType: .privateQueue)
    context.persistentStoreCoordinator = coordinator
    return try context.performAndWait { try context.existingObject(with: id).value(forKey: "title") as? String }
}

/// `ManagedObjectID` as a plain value: its size, equality and hashing across stores and
/// coordinators, URI round trips, and IDs that name no object of a coordinator.
@Suite struct ManagedObjectIDValueTests {
    @Test func anIDIsSixteenBytesWithNoReference() {
        #expect(MemoryLayout<ManagedObjectID>.size == 16)
        #expect(MemoryLayout<ManagedObjectID>.stride == 16)
        #expect(_isPOD(ManagedObjectID.self))
    }

    @Test(arguments: StoreKind.allCases)
    func equalKeysOfTwoStoresAreDifferentIDs(kind: StoreKind) throws {
        let stores = try TwoItemStores(kind)
        #expect(stores.inFirst.primaryKey == 1 && stores.inSecond.primaryKey == 1)
        #expect(stores.inFirst.entity === stores.inSecond.entity)
        #expect(stores.inFirst != stores.inSecond)
        #expect(Set([stores.inFirst, stores.inSecond]).count == 2)
        #expect(stores.inFirst.storeIdentifier == stores.first.identifier)
        #expect(stores.inSecond.storeIdentifier == stores.second.identifier)
        // The same row, made again by the store, is the same ID.
        let again = try stores.context.performAndWait {
            try stores.context.fetch(FetchRequest<ManagedObject>(entityName: "Item")).map(\.objectID)
        }
        #expect(Set(again) == [stores.inFirst, stores.inSecond])
        #expect(Set(again.map(\.hashValue)) == [stores.inFirst.hashValue, stores.inSecond.hashValue])
        #expect(try title(of: stores.inFirst, in: stores.coordinator) == "in a")
        #expect(try title(of: stores.inSecond, in: stores.coordinator) == "in b")
    }

    @Test func temporaryAndPermanentIDsDiffer() throws {
        let stack = try TestStack(model: Models.nestedList(), kind: .inMemory)
        let (temporary, permanent) = try stack.context.performAndWait {
            let item = stack.insert("Item")
            let temporary = item.objectID
            #expect(temporary.isTemporaryID && temporary.primaryKey == nil && temporary.storeIdentifier == nil)
            #expect(temporary.entity.name == "Item")
            #expect(temporary.uriRepresentation().absoluteString.hasPrefix("x-coredata:///Item/t"))
            try stack.context.save()
            return (temporary, item.objectID)
        }
        #expect(!permanent.isTemporaryID && permanent.primaryKey == 1)
        #expect(temporary != permanent)
        let other = ManagedObjectID.makeTemporary(for: permanent.entity)
        #expect(other != temporary && other == other)
    }

    @Test(arguments: StoreKind.allCases)
    func uriRepresentationsRoundTripInTheirCoordinator(kind: StoreKind) throws {
        let stores = try TwoItemStores(kind)
        for id in [stores.inFirst, stores.inSecond] {
            let uri = id.uriRepresentation()
            #expect(uri.absoluteString == "x-coredata://\(id.storeIdentifier!)/Item/p1")
            #expect(stores.coordinator.managedObjectID(forURIRepresentation: uri) == id)
        }
        // Not permanent object URIs, or naming what this coordinator lacks.
        let temporary = stores.context.performAndWait { EntityDescription.insertNewObject(forEntityName: "Item", into: stores.context).objectID }
        for text in [temporary.uriRepresentation().absoluteString, "x-coredata://nowhere/Item/p1",
                     "x-coredata://\(stores.first.identifier)/Missing/p1", "x-coredata://\(stores.first.identifier)/Item/p0",
                     "x-coredata://\(stores.first.identifier)/Item/t1", "x-coredata://\(stores.first.identifier)/Item/pX",
                     "x-coredata://\(stores.first.identifier)/Item", "https://example.com/Item/p1"] {
            #expect(stores.coordinator.managedObjectID(forURIRepresentation: URL(string: text)!) == nil, "\(text)")
        }
    }

    @Test func aURIFindsTheRowAfterTheFileIsReopened() throws {
        let stores = try TwoItemStores(.sqlite)
        let uri = stores.inFirst.uriRepresentation()
        let reopened = try stores.reopenedFirst()
        let id = try #require(reopened.managedObjectID(forURIRepresentation: uri))
        // The same file and model: the same ID, as in Core Data.
        #expect(id == stores.inFirst)
        #expect(try title(of: id, in: reopened) == "in a")
        // The second store is not open here.
        #expect(reopened.managedObjectID(forURIRepresentation: stores.inSecond.uriRepresentation()) == nil)

        // Another model instance of the same shape: its own IDs, which find the row.
        let otherModel = try stores.reopenedFirst(model: Models.nestedList())
        let otherID = try #require(otherModel.managedObjectID(forURIRepresentation: uri))
        #expect(otherID != stores.inFirst)
        #expect(otherID.storeIdentifier == stores.inFirst.storeIdentifier && otherID.primaryKey == 1)
        #expect(try title(of: otherID, in: otherModel) == "in a")
    }

    @Test(arguments: StoreKind.allCases)
    func idsOfAnotherModelOrARemovedStoreNameNoObject(kind: StoreKind) throws {
        let stores = try TwoItemStores(kind)
        // The same file under another model: the ID's entity is not this model's.
        let otherModel = try stores.reopenedFirst(model: Models.nestedList())
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = otherModel
        try context.performAndWait {
            let error = try #require(throws: CoreDataError.self) { try context.existingObject(with: stores.inFirst) }
            #expect(error.code == .objectNotFound)
        }
        // A store removed from the coordinator: its IDs name nothing any more, even
        // though the other store holds a row with the same entity and key.
        stores.coordinator.remove(stores.second)
        let fresh = ManagedObjectContext(concurrencyType: .privateQueue)
        fresh.persistentStoreCoordinator = stores.coordinator
        try fresh.performAndWait {
            let error = try #require(throws: CoreDataError.self) { try fresh.existingObject(with: stores.inSecond) }
            #expect(error.code == .objectNotFound)
            #expect(try fresh.existingObject(with: stores.inFirst).value(forKey: "title") as? String == "in a")
        }
        #expect(stores.coordinator.managedObjectID(forURIRepresentation: stores.inSecond.uriRepresentation()) == nil)
    }

    @Test func idsOfAnEntityUsedBeforeItsModelIsFrozenKeepTheirEntity() {
        let entity = EntityDescription(name: "Loose")
        let first = ManagedObjectID.makeTemporary(for: entity)
        let second = ManagedObjectID.makeTemporary(for: entity)
        #expect(first.entity === entity && second.entity === entity)
        #expect(first.entitySerial == second.entitySerial && first != second)
        let permanent = ManagedObjectID(entity: entity, storeIdentifier: "S", primaryKey: 3)
        #expect(permanent == ManagedObjectID(entity: entity, storeIdentifier: "S", primaryKey: 3))
        #expect(permanent != ManagedObjectID(entity: entity, storeIdentifier: "T", primaryKey: 3))
        #expect(permanent != ManagedObjectID(entity: EntityDescription(name: "Loose"), storeIdentifier: "S", primaryKey: 3))
        #expect(permanent.uriRepresentation().absoluteString == "x-coredata://S/Loose/p3")
    }

    @Test func idsAreDictionaryKeysAcrossThreads() async throws {
        let stores = try TwoItemStores(.inMemory)
        let entity = stores.inFirst.entity
        // Keys 1…500 in each of the two stores: 1,000 distinct IDs, built on several tasks.
        let ids = await withTaskGroup(of: [ManagedObjectID].self) { group in
            for store in [stores.first.identifier, stores.second.identifier] {
                for start in stride(from: 1, through: 500, by: 100) {
                    group.addTask {
                        (start..<start + 100).map { ManagedObjectID(entity: entity, storeIdentifier: store, primaryKey: Int64($0)) }
                    }
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        let table = Dictionary(uniqueKeysWithValues: ids.map { ($0, $0.primaryKey!) })
        #expect(table.count == 1_000)
        let found = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    ids.filter { table[$0] == $0.primaryKey && Set([$0]).contains($0) }.count
                }
            }
            return await group.reduce(0, +)
        }
        #expect(found == 4_000)
        #expect(table[stores.inFirst] == 1 && table[stores.inSecond] == 1)
    }
}
