import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// A `Date` whose time interval is NaN was saved as NULL by SQLite (and kept as NaN in
/// memory); it is refused like a NaN number, by every write path, on both stores.
@Suite struct NaNDateTests {
    private static let nanDate = Date(timeIntervalSinceReferenceDate: .nan)

    private func code(_ body: () throws -> Void) -> CoreDataError.Code? {
        do { try body() } catch let error as CoreDataError { return error.code } catch { return nil }
        return nil
    }

    @Test(arguments: StoreKind.allCases)
    func aNaNDateIsRefusedByEveryWritePath(kind: StoreKind) throws {
        let stack = try TestStack.tenSamples(kind)
        try stack.context.performAndWait {
            let sample = stack.insert("Sample", ["key": "nan", "date": Self.nanDate])
            let error = try #require(throws: CoreDataError.self) { try stack.context.save() }
            #expect(error.code == .validationWrongType)
            #expect(error.key == "date")
            #expect(error.message.contains("NaN"))
            sample.setValue(Date(timeIntervalSinceReferenceDate: .infinity), forKey: "date")
            try stack.context.save()
            stack.context.delete(sample)
            try stack.context.save()

            let insert = BatchInsertRequest(entityName: "Sample", objects: [["key": "nan", "date": Self.nanDate]])
            #expect(code { _ = try stack.context.execute(insert) } == .validationWrongType)
            let update = BatchUpdateRequest(entityName: "Sample")
            update.propertiesToUpdate = ["date": Self.nanDate]
            #expect(code { _ = try stack.context.execute(update) } == .validationWrongType)
            stack.context.reset()
            let dates = try stack.context.fetch(stack.request()).map { $0.value(forKey: "date") as? Date }
            #expect(dates.count == 10 && dates.allSatisfy { $0 == nil }, "nothing was written")
        }
    }

    @Test func validationReportsANaNDate() {
        let attribute = AttributeDescription(name: "when", type: .date)
        #expect(attribute.isNaN(Self.nanDate))
        #expect(!attribute.isNaN(Date(timeIntervalSinceReferenceDate: 0)))
        #expect(attribute.validationErrors(for: Self.nanDate).map(\.code) == [.validationWrongType])
    }
}
