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

    @Test func closuresAndIndexesOnStringsAreRefused() throws {
        let closure = try loweringError(#Predicate { $0.title.contains { $0.isUppercase } })
        #expect(closure.code == .invalidPredicate)
        #expect(closure.message.contains("Character"))
        let first = try loweringError(#Predicate { $0.title.first != nil })
        #expect(first.message.contains("on String has no Core Data form"))
    }

    @Test func subsequenceTestsOnNonStringsAreRefused() throws {
        let numbers: [Int64] = [1, 2, 3]
        let prefix: [Int64] = [1]
        let starts = try loweringError(#Predicate { _ in numbers.starts(with: prefix) })
        #expect(starts.message.contains("starts(with:) of a non-string sequence"))
        let contains = try loweringError(#Predicate { _ in numbers.contains(prefix) })
        #expect(contains.message.contains("contains(_:) of a non-string collection"))
    }

    @Test func unsupportedExpressionTypesAreNamed() throws {
        let maximum = try loweringError(#Predicate { $0.priority < [1, 2].max()! })
        #expect(maximum.code == .invalidPredicate)
        #expect(maximum.message.contains("PredicateExpressions.SequenceMaximum has no Core Data form"))
        let subscripted = try loweringError(#Predicate { ["Milk": 1][$0.title] == 1 })
        #expect(subscripted.message.contains("PredicateExpressions.DictionaryKeySubscript has no Core Data form"))
    }

    @Test func aCapturedRangeIsRefused() throws {
        let range: ClosedRange<Int64> = 1...3
        let error = try loweringError(#Predicate { range.contains($0.priority) })
        #expect(error.code == .invalidPredicate)
        #expect(error.message.contains("captured range"))
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
