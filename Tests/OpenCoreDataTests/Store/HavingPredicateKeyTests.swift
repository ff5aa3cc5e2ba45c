import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// A `havingPredicate` naming a key the grouped dictionaries do not have returned no rows;
/// it is the typed error every other unknown key gets, on both stores.
@Suite struct HavingPredicateKeyTests {
    private func grouped(having format: String, by key: String = "group") throws -> FetchRequest<NSDictionary> {
        let total = ExpressionDescription(name: "total")
        total.expression = CDExpression(forFunction: "sum:", arguments: [.keyPath("int64")])
        let request = FetchRequest<NSDictionary>(entityName: "Sample")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = [key, total]
        request.propertiesToGroupBy = [key]
        request.sortDescriptors = [CDSortDescriptor(key: key)]
        request.havingPredicate = try CDPredicate(format: format)
        return request
    }

    @Test(arguments: StoreKind.allCases)
    func anUnknownHavingKeyIsATypedError(kind: StoreKind) throws {
        let stack = try TestStack.tenSamples(kind)
        try stack.context.performAndWait {
            for format in ["nosuch > 1", "total > 1 AND nosuch == nil", "abs(nosuch) > 1", "int64 > 1", "TERNARY(nosuch == 1, total, 0) > 0"] {
                let error = try #require(throws: CoreDataError.self, "\(format)") { try stack.context.fetchDictionaries(grouped(having: format)) }
                #expect(error.code == .invalidFetchRequest, "\(format)")
            }
            // A key path reads "parent" then "key": a column named "parent.key" is not found
            // that way (it read nil), so it is named in the error.
            let dotted = try #require(throws: CoreDataError.self) { try stack.context.fetchDictionaries(grouped(having: "parent.key == nil", by: "parent.key")) }
            #expect(dotted.message.contains("ExpressionDescription"))
            // The fetched keys still filter.
            #expect(try stack.context.fetchDictionaries(grouped(having: "total < 22 AND group != nil")).map { $0["group"] as? String } == ["odd"])
        }
    }
}
