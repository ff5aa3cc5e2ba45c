import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Review: a row read from the coordinator's row cache after a save answers as the
/// store does. Before, the cache kept the saving context's decimal (38 digits) while
/// the store kept it rounded to a double, so the answer depended on the cache.
@Suite struct ReviewRowCacheTests {
    @Test(arguments: StoreKind.allCases)
    func aRowReadAfterAnotherContextsSaveHasTheStoredDecimal(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.allTypes(), kind: kind)
        let id = try stack.context.performAndWait {
            let thing = stack.insert("Thing", ["name": "thing"])
            try stack.context.save()
            return thing.objectID
        }
        let writer = stack.newContext()
        try writer.performAndWait {
            try writer.existingObject(with: id).setValue(Decimal(string: "0.1000000000000000000001")!, forKey: "decimal")
            try writer.save()
        }
        let reader = stack.newContext()
        let cached = try reader.performAndWait { try reader.existingObject(with: id).value(forKey: "decimal") as? Decimal }
        let fetcher = stack.newContext()
        let stored = try fetcher.performAndWait {
            try fetcher.fetch(FetchRequest<ManagedObject>(entityName: "Thing")).first?.value(forKey: "decimal") as? Decimal
        }
        #expect(cached == stored)
    }
}
