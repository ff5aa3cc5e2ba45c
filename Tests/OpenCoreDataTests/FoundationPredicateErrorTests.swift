import Foundation
import Testing
@testable import OpenCoreData

/// `#Predicate` and `SortDescriptor` parts without a Core Data form are typed errors.
@Suite struct FoundationPredicateErrorTests {
    init() { _ = ErrandModel.model() }

    private func loweringError(_ predicate: Predicate<Errand>) throws -> CoreDataError {
        try #require(throws: CoreDataError.self) { try CDPredicate(predicate) }
    }

    /// `isUrgent` reads `priority` but is a Bool, so it cannot pass for `priority`.
    @Test func aKeyPathThatIsNotManagedIsNamed() throws {
        for predicate in [#Predicate<Errand> { $0.kind == "errand" }, #Predicate<Errand> { $0.isUrgent }] {
            let error = try loweringError(predicate)
            #expect(error.code == .invalidPredicate)
            #expect(error.message.contains("not a @Managed property"))
        }
    }

    @Test func aPropertyOfACapturedValueIsRefused() throws {
        struct Limits: Codable, Sendable { var highest: Int64 = 3 }
        let limits = Limits()
        let error = try loweringError(#Predicate { $0.priority == limits.highest })
        #expect(error.code == .invalidPredicate)
        #expect(error.message.contains("captured value"))
    }

    @Test func anUnsupportedExpressionTypeIsNamed() throws {
        let error = try loweringError(#Predicate { (1...3).contains($0.priority) })
        #expect(error.code == .invalidPredicate)
        #expect(error.message.contains("PredicateExpressions.RangeExpressionContains"))
    }

    @Test func sortDescriptorsOnUnmanagedOrLongerKeyPathsAreRefused() throws {
        for descriptor in [
            SortDescriptor(\Errand.kind, comparator: .lexical),
            SortDescriptor(\Errand.parent?.title, comparator: .lexical),
        ] {
            let error = try #require(throws: CoreDataError.self) { try CDSortDescriptor(descriptor) }
            #expect(error.code == .invalidFetchRequest)
        }
    }
}
