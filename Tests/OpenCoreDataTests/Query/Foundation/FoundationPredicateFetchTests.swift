import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Fetches with lowered `#Predicate`s and `SortDescriptor`s return the expected errands
/// on both stores.
@Suite struct FoundationPredicateFetchTests {
    @Test(arguments: StoreKind.allCases)
    func comparisonsAndLogicFilter(kind: StoreKind) throws {
        let stack = try ErrandModel.stack(kind)
        #expect(try stack.titles(FetchRequest(predicate: #Predicate { $0.priority > 2 && !$0.done })) == ["Eggs", "Shop"])
        #expect(try stack.titles(FetchRequest(predicate: #Predicate { $0.done })) == ["Bank", "Milk"])
        #expect(try stack.titles(FetchRequest(predicate: #Predicate { $0.estimate >= 1.25 || $0.title == "Milk" })) == ["Eggs", "Milk", "Shop"])
        #expect(try stack.titles(FetchRequest(predicate: .true)) == ["Bank", "Bread", "Eggs", "Milk", "Shop"])
    }

    @Test(arguments: StoreKind.allCases)
    func nilAndToOneKeyPathsFilter(kind: StoreKind) throws {
        let stack = try ErrandModel.stack(kind)
        #expect(try stack.titles(FetchRequest(predicate: #Predicate { $0.note == nil })) == ["Bank", "Bread", "Milk"])
        #expect(try stack.titles(FetchRequest(predicate: #Predicate { $0.note != nil })) == ["Eggs", "Shop"])
        #expect(try stack.titles(FetchRequest(predicate: #Predicate { $0.parent == nil })) == ["Bank", "Shop"])
        #expect(try stack.titles(FetchRequest(predicate: #Predicate { $0.parent?.title == "Shop" && $0.priority > 1 })) == ["Bread", "Eggs"])
    }

    @Test(arguments: StoreKind.allCases)
    func capturedValuesAndConditionalsFilter(kind: StoreKind) throws {
        let stack = try ErrandModel.stack(kind)
        let parentTitle = "Shop"
        let cheapest = 0.5
        #expect(try stack.titles(FetchRequest(predicate: #Predicate { $0.parent?.title == parentTitle })) == ["Bread", "Eggs", "Milk"])
        #expect(try stack.titles(FetchRequest(predicate: #Predicate { $0.estimate <= cheapest })) == ["Bank", "Bread", "Milk"])
        #expect(try stack.titles(FetchRequest(predicate: #Predicate { $0.done ? $0.priority > 3 : $0.priority < 3 })) == ["Bank", "Bread"])
        #expect(try stack.titles(FetchRequest(predicate: #Predicate { $0.parent?.done ?? false })) == [])
        #expect(try stack.titles(FetchRequest(predicate: #Predicate { $0.parent?.done ?? true })) == ["Bank", "Shop"])
    }

    @Test(arguments: StoreKind.allCases)
    func sortDescriptorsOrder(kind: StoreKind) throws {
        let stack = try ErrandModel.stack(kind)
        let steps = try FetchRequest<Errand>(predicate: #Predicate { $0.parent != nil }, sortBy: [SortDescriptor(\.priority, order: .reverse)])
        #expect(try stack.titles(steps) == ["Eggs", "Bread", "Milk"])

        let all = try FetchRequest<Errand>(sortBy: [SortDescriptor(\.estimate), SortDescriptor(\.title, comparator: .lexical, order: .reverse)])
        #expect(try stack.titles(all) == ["Milk", "Bread", "Bank", "Eggs", "Shop"])

        let byNote = FetchRequest<Errand>()
        try byNote.setSortDescriptors([SortDescriptor(\.note), SortDescriptor(\.title, comparator: .lexical)])
        #expect(try stack.titles(byNote) == ["Bank", "Bread", "Milk", "Eggs", "Shop"])
    }

    @Test func sortDescriptorsLowerToKeyOrderAndSelector() throws {
        _ = ErrandModel.model()
        #expect(try CDSortDescriptor(SortDescriptor(\Errand.title, comparator: .lexical, order: .reverse))
            == CDSortDescriptor(key: "title", ascending: false, selector: .compare))
        #expect(try CDSortDescriptor(SortDescriptor(\Errand.priority)) == CDSortDescriptor(key: "priority"))
        #expect(try CDSortDescriptor(SortDescriptor(\Errand.due, order: .reverse)) == CDSortDescriptor(key: "due", ascending: false))
        #expect(CDSortDescriptor.selector(for: .lexical) == .compare)
    }

    @Test func setPredicateReplacesTheRequestsPredicate() throws {
        _ = ErrandModel.model()
        let request = FetchRequest<Errand>()
        try request.setPredicate(#Predicate { $0.title == "Milk" })
        #expect(request.predicate == (try CDPredicate(format: "title == 'Milk'")))
    }
}
