import Foundation
import Testing
@testable import OpenCoreData

/// A `havingPredicate` naming a key the grouped dictionaries do not have returned no rows;
/// it is the typed error every other unknown key gets, on both stores.
@Suite struct HavingPredicateKeyTests {
    private func grouped(having format: String) throws -> FetchRequest<NSDictionary> {
        let total = ExpressionDescription(name: "total")
        total.expression = CDExpression(forFunction: "sum:", arguments: [.keyPath("int64")])
        let request = FetchRequest<NSDictionary>(entityName: "Sample")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["group", total]
        request.propertiesToGroupBy = ["group"]
        request.sortDescriptors = [CDSortDescriptor(key: "group")]
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
            // The fetched keys still filter.
            #expect(try stack.context.fetchDictionaries(grouped(having: "total < 22 AND group != nil")).map { $0["group"] as? String } == ["odd"])
        }
    }
}
