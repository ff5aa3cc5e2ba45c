import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// The fetch options that change what is read: property values, faults, pending changes,
/// counting — checked by counting store statements and registered objects.
@Suite struct FetchOptionsTests {
    @Test(arguments: StoreKind.allCases)
    func withoutPropertyValuesObjectsFaultInOnAccess(kind: StoreKind) throws {
        let stack = try TestStack.tenSamples(kind)
        let fresh = stack.newContext()
        try fresh.performAndWait {
            let request = try stack.request(sortedBy: ["key"])
            request.includesPropertyValues = false
            let objects = try fresh.fetch(request)
            #expect(objects.count == 10)
            #expect(objects.allSatisfy { $0.isFault && $0.committed == nil })
            let start = stack.coordinator.executedStatementCount
            #expect(objects[3].value(forKey: "key") as? String == "k3")
            #expect(stack.coordinator.executedStatementCount - start == 1, "the row is read when the fault fires")
            #expect(!objects[3].isFault)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func returnsObjectsAsFaultsControlsFiring(kind: StoreKind) throws {
        let stack = try TestStack.tenSamples(kind)
        try stack.context.performAndWait {
            let request = try stack.request()
            #expect(try stack.context.fetch(request).allSatisfy(\.isFault))
            stack.context.reset()
            request.returnsObjectsAsFaults = false
            let objects = try stack.context.fetch(request)
            #expect(objects.allSatisfy { !$0.isFault })
            let start = stack.coordinator.executedStatementCount
            #expect(objects.compactMap { $0.value(forKey: "key") as? String }.count == 10)
            #expect(stack.coordinator.executedStatementCount == start)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func countingLoadsNoObjects(kind: StoreKind) throws {
        let stack = try TestStack.tenSamples(kind)
        try stack.context.performAndWait {
            let request = try stack.request("group == 'odd'")
            let start = stack.coordinator.executedStatementCount
            #expect(try stack.context.count(for: request) == 5)
            let counted = FetchRequest<NSNumber>(entityName: "Sample")
            counted.resultType = .countResultType
            counted.predicate = request.predicate
            #expect(try stack.context.fetch(counted) == [NSNumber(value: 5)])
            #expect(stack.coordinator.executedStatementCount - start == 2, "one statement per count")
            #expect(stack.context.registeredObjects.isEmpty)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func pendingChangesForEveryResultType(kind: StoreKind) throws {
        let stack = try TestStack.tenSamples(kind)
        try stack.context.performAndWait {
            let stored = try stack.context.fetch(stack.request("group == 'odd'", sortedBy: ["key"]))
            stack.context.delete(stored[0])
            stored[1].setValue("even", forKey: "group")
            _ = stack.insert("Sample", ["key": "new", "group": "odd"])
            let request = try stack.request("group == 'odd'", sortedBy: ["key"])
            #expect(try stack.keys(request) == ["k5", "k7", "k9", "new"])
            #expect(try stack.context.count(for: request) == 4)
            let ids = FetchRequest<ManagedObjectID>(entityName: "Sample")
            ids.resultType = .managedObjectIDResultType
            ids.predicate = request.predicate
            #expect(try stack.context.fetch(ids).count == 4)

            request.includesPendingChanges = false
            ids.includesPendingChanges = false
            #expect(try stack.keys(request) == ["k1", "k3", "k5", "k7", "k9"])
            #expect(try stack.context.count(for: request) == 5)
            #expect(try stack.context.fetch(ids).count == 5)
        }
    }
}
