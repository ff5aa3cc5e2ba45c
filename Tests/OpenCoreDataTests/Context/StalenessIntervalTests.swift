import Foundation
import Testing
import OpenCoreDataTestSupport
@testable import OpenCoreData

/// `stalenessInterval` (Core Data: "the maximum length of time that may have elapsed since
/// the store previously fetched data before fulfilling a fault issues a new fetch … The
/// default is a negative value, which represents infinite staleness allowed. 0.0
/// represents 'no staleness acceptable'"): a fault fired with a cached row older than the
/// interval reads the store again; loaded objects are not affected.
@Suite struct StalenessIntervalTests {
    /// Saves `count` items, then fetches them as faults in a fresh context (their rows
    /// cached by the fetch) and returns them.
    static func faults(_ stack: TestStack, count: Int, stalenessInterval: TimeInterval) throws -> (ManagedObjectContext, [ManagedObject]) {
        try stack.context.performAndWait {
            for index in 0..<count { _ = stack.insert("Item", ["title": "t\(index)"]) }
            try stack.context.save()
        }
        let context = stack.newContext()
        context.stalenessInterval = stalenessInterval
        let objects = try context.performAndWait { try context.fetch(FetchRequest<ManagedObject>(entityName: "Item")) }
        return (context, objects)
    }

    /// Store reads (SQL statements, or in-memory store reads) while `body` runs.
    static func reads(_ stack: TestStack, _ body: () -> Void) -> Int {
        let before = stack.coordinator.executedStatementCount
        body()
        return stack.coordinator.executedStatementCount - before
    }

    @Test(arguments: StoreKind.allCases)
    func byDefaultFaultsFireFromCachedRows(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        let (context, objects) = try Self.faults(stack, count: 3, stalenessInterval: -1)
        #expect(context.stalenessInterval < 0)
        context.performAndWait {
            #expect(objects.allSatisfy { $0.isFault })
            #expect(Self.reads(stack) { for object in objects { _ = object.value(forKey: "title") } } == 0)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func zeroReadsTheStoreForEveryFault(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        let (context, objects) = try Self.faults(stack, count: 3, stalenessInterval: 0)
        context.performAndWait {
            #expect(Self.reads(stack) { for object in objects { _ = object.value(forKey: "title") } } == 3)
            #expect(Set(objects.map { $0.value(forKey: "title") as? String }) == ["t0", "t1", "t2"])
            // Loaded objects are not affected.
            #expect(Self.reads(stack) { _ = objects[0].value(forKey: "title") } == 0)
            if kind == .sqlite {
                context.refresh(objects[0], mergeChanges: false)
                let sql = stack.capturingSQL { _ = objects[0].value(forKey: "title") }
                #expect(sql.count == 1)
                #expect(sql.first?.hasPrefix("SELECT") == true)
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func rowsYoungerThanTheIntervalAreUsedOlderOnesReadAgain(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        let (context, objects) = try Self.faults(stack, count: 2, stalenessInterval: 0.2)
        context.performAndWait {
            #expect(Self.reads(stack) { _ = objects[0].value(forKey: "title") } == 0)
        }
        Thread.sleep(forTimeInterval: 0.25)
        context.performAndWait {
            #expect(Self.reads(stack) { _ = objects[1].value(forKey: "title") } == 1)
            // That read cached the row afresh: a fault of it fires from the cache again.
            context.refresh(objects[1], mergeChanges: false)
            #expect(Self.reads(stack) { _ = objects[1].value(forKey: "title") } == 0)
        }
    }

    /// A row changed by another coordinator (as another process would) after the fetch
    /// that made the fault: with an interval of 0 the fault does not use the row it kept
    /// from that fetch, and reads the new value.
    @Test func aFaultReadsAValueChangedBehindTheCache() throws {
        let stack = try TestStack(model: Models.nestedList(), kind: .sqlite)
        let (context, objects) = try Self.faults(stack, count: 1, stalenessInterval: 0)
        let id = objects[0].objectID
        let elsewhere = try stack.reopened()
        try elsewhere.context.performAndWait {
            let object = try #require(try elsewhere.fetch("Item").first)
            #expect(object.objectID.uriRepresentation() == id.uriRepresentation())
            object.setValue("new", forKey: "title")
            try elsewhere.context.save()
        }
        context.performAndWait {
            #expect(objects[0].value(forKey: "title") as? String == "new")
        }
    }
}
