import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// A row readable by key, remembering where it started for stability checks.
private struct Row: KeyValueCoding {
    var number: Int
    var values: [String: Any]
    func value(forKey key: String) -> Any? { values[key] }
}

@Suite struct SortDescriptorTests {
    private func rows(_ values: [[String: Any]]) -> [Row] {
        values.enumerated().map { Row(number: $0.offset, values: $0.element) }
    }

    private func order(_ rows: [Row], _ descriptors: [CDSortDescriptor]) -> [Int] {
        CDSortDescriptor.sort(rows, by: descriptors).map(\.number)
    }

    // MARK: - One key

    @Test func ascendingAndDescending() {
        let items = rows([["n": 3], ["n": 1], ["n": 2]])
        #expect(order(items, [CDSortDescriptor(key: "n")]) == [1, 2, 0])
        #expect(order(items, [CDSortDescriptor(key: "n", ascending: false)]) == [0, 2, 1])
        #expect(CDSortDescriptor(key: "n").reversedSortDescriptor == CDSortDescriptor(key: "n", ascending: false))
    }

    @Test func nilSortsFirstAscendingAndLastDescending() {
        let items = rows([["n": 2], [:], ["n": -5], ["n": NSNull()]])
        #expect(order(items, [CDSortDescriptor(key: "n")]) == [1, 3, 2, 0])
        #expect(order(items, [CDSortDescriptor(key: "n", ascending: false)]) == [0, 2, 1, 3])
        let descriptor = CDSortDescriptor(key: "n")
        #expect(descriptor.compare(["n": Optional<Int>.none as Any], ["n": Int.min]) == .orderedAscending)
        #expect(descriptor.compare(["n": 1], [String: Any]()) == .orderedDescending)
        #expect(descriptor.compare([String: Any](), [String: Any]()) == .orderedSame)
    }

    @Test func mixedNumericTypesSortByValue() {
        let items = rows([["n": 2.5], ["n": Int16(2)], ["n": Decimal(3)], ["n": UInt64.max], ["n": Float(-1)], ["n": true]])
        #expect(order(items, [CDSortDescriptor(key: "n")]) == [4, 5, 1, 0, 2, 3])
    }

    @Test func stringsDatesAndUnrelatedTypes() {
        let words = rows([["s": "b"], ["s": "B"], ["s": "a"], ["s": "é"], ["s": ""]])
        #expect(order(words, [CDSortDescriptor(key: "s")]) == [4, 1, 2, 0, 3])
        let dates = rows([["d": Date(timeIntervalSinceReferenceDate: 5)], ["d": Date(timeIntervalSinceReferenceDate: -5)]])
        #expect(order(dates, [CDSortDescriptor(key: "d")]) == [1, 0])
        // Unrelated types group by type: nil, numbers, strings, dates.
        let mixed = rows([["v": Date()], ["v": "x"], ["v": 1], [:]])
        #expect(order(mixed, [CDSortDescriptor(key: "v")]) == [3, 2, 1, 0])
    }

    @Test func dottedKeyPaths() {
        let items = rows([
            ["parent": ["title": "b"] as [String: Any]],
            ["parent": ["title": "a"] as [String: Any]],
            [:],
        ])
        #expect(order(items, [CDSortDescriptor(key: "parent.title")]) == [2, 1, 0])
    }

    @Test func managedObjectsAndObjectIDs() {
        let entity = EntityDescription(name: "Item")
        let first = ManagedObject.detached(entity: entity, objectID: ManagedObjectID(entity: entity, storeIdentifier: "S", primaryKey: 2))
        let second = ManagedObject.detached(entity: entity, objectID: ManagedObjectID(entity: entity, storeIdentifier: "S", primaryKey: 1))
        let items = rows([["owner": first], ["owner": second]])
        #expect(order(items, [CDSortDescriptor(key: "owner")]) == [1, 0])
    }

    // MARK: - Several keys

    @Test func laterDescriptorsBreakTiesAndTheSortIsStable() {
        let items = rows([
            ["a": 1, "b": "y"], ["a": 0, "b": "z"], ["a": 1, "b": "x"], ["a": 1, "b": "x"], ["a": 0, "b": "z"],
        ])
        #expect(order(items, [CDSortDescriptor(key: "a"), CDSortDescriptor(key: "b")]) == [1, 4, 2, 3, 0])
        #expect(order(items, [CDSortDescriptor(key: "a", ascending: false), CDSortDescriptor(key: "b")]) == [2, 3, 0, 1, 4])
        #expect(order(items, []) == [0, 1, 2, 3, 4])
    }

    @Test func randomValuesSortConsistently() {
        let seed = UInt64.random(in: 1...UInt64.max)
        print("SortDescriptorTests.randomValuesSortConsistently seed: \(seed)")
        var state = seed
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        let pool: [() -> Any?] = [
            { nil }, { Int64(bitPattern: next() << 11) }, { Double(Int64(next() % 2000) - 1000) / 8 }, { Int16(truncatingIfNeeded: next()) },
            { Decimal(Int(next() % 100)) }, { String(UnicodeScalar(UInt8(65 + next() % 26))) }, { next() % 2 == 0 },
        ]
        let values = (0..<300).map { _ in pool[Int(next() % UInt64(pool.count))]() }
        let items = rows(values.map { value in value.map { ["v": $0] } ?? [:] })
        for ascending in [true, false] {
            let descriptor = CDSortDescriptor(key: "v", ascending: ascending)
            let sorted = CDSortDescriptor.sort(items, by: [descriptor])
            #expect(sorted.map(\.number).sorted() == Array(0..<300), "seed \(seed): not a permutation")
            for (left, right) in zip(sorted, sorted.dropFirst()) {
                let result = descriptor.compare(left, right)
                #expect(result != .orderedDescending, "seed \(seed): \(left.values) before \(right.values)")
                if result == .orderedSame { #expect(left.number < right.number, "seed \(seed): unstable") }
                #expect(descriptor.compare(right, left) == result.reversed, "seed \(seed): asymmetric")
            }
        }
    }

    // MARK: - Selectors

    @Test func caseInsensitiveCompareFoldsCaseAndKeepsTiesInOrder() {
        let words = rows([["s": "b"], ["s": "B"], ["s": "a"], ["s": "C"]])
        #expect(order(words, [CDSortDescriptor(key: "s")]) == [1, 3, 2, 0], "bytes: B C a b")
        #expect(order(words, [CDSortDescriptor(key: "s", selector: .caseInsensitiveCompare)]) == [2, 0, 1, 3], "b and B tie: input order")
        #expect(order(words, [CDSortDescriptor(key: "s", ascending: false, selector: .caseInsensitiveCompare)]) == [3, 0, 1, 2])
        let folded = rows([["s": "STRASSE"], ["s": "straße"], ["s": "strasse"]])
        let sorted = order(folded, [CDSortDescriptor(key: "s", selector: .caseInsensitiveCompare)])
        #expect(sorted == [0, 1, 2], "all three fold to strasse: a tie keeps the input order")
    }

    @Test func localizedSelectors() {
        let accents = rows([["s": "f"], ["s": "é"], ["s": "e"]])
        #expect(order(accents, [CDSortDescriptor(key: "s")]) == [2, 0, 1], "bytes put é after f")
        #expect(order(accents, [CDSortDescriptor(key: "s", selector: .localizedCompare)]) == [2, 1, 0])
        #expect(order(accents, [CDSortDescriptor(key: "s", selector: .localizedCaseInsensitiveCompare)]) == [2, 1, 0])
        let mixedCase = rows([["s": "B"], ["s": "a"]])
        #expect(order(mixedCase, [CDSortDescriptor(key: "s", selector: .localizedCompare)]) == [1, 0])
        let numbered = rows([["s": "a10"], ["s": "a2"], ["s": "A1"]])
        #expect(order(numbered, [CDSortDescriptor(key: "s", selector: .localizedStandardCompare)]) == [2, 1, 0], "Finder-like")
        #expect(order(numbered, [CDSortDescriptor(key: "s")]) == [2, 0, 1])
    }

    @Test func selectorsLeaveOtherValuesAndNilAlone() {
        for selector in CDSortDescriptor.Selector.allCases {
            let values = rows([["v": 3], ["v": "b"], [:], ["v": 1], ["v": "A"], ["v": Date(timeIntervalSinceReferenceDate: 0)]])
            let ascending = order(values, [CDSortDescriptor(key: "v", selector: selector)])
            #expect(ascending.first == 2, "\(selector): nil first ascending")
            #expect(Array(ascending[1...2]) == [3, 0], "\(selector): numbers by value, before strings")
            #expect(ascending.last == 5, "\(selector): dates after strings")
            let descending = order(values, [CDSortDescriptor(key: "v", ascending: false, selector: selector)])
            #expect(descending == ascending.reversed(), "\(selector): descending reverses")
        }
    }

    @Test func selectorsThroughToOneKeyPaths() {
        let items = rows([
            ["parent": ["title": "b"] as [String: Any]],
            ["parent": ["title": "A"] as [String: Any]],
            ["parent": [String: Any]()],
            [:],
        ])
        #expect(order(items, [CDSortDescriptor(key: "parent.title", selector: .caseInsensitiveCompare)]) == [2, 3, 1, 0])
        #expect(order(items, [CDSortDescriptor(key: "parent.title")]) == [2, 3, 1, 0])
        #expect(order(items, [CDSortDescriptor(key: "parent.title", ascending: false, selector: .caseInsensitiveCompare)]) == [0, 1, 2, 3])
    }

    @Test(arguments: StoreKind.allCases) func managedObjectsByARelatedTitle(_ kind: StoreKind) throws {
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        try stack.context.performAndWait {
            let parents = ["beta", "Alpha", "gamma"].map { stack.insert("Item", ["title": $0]) }
            for (number, parent) in parents.enumerated() {
                let child = stack.insert("Item", ["title": "child \(number)", "order": Int64(number)])
                child.setValue(parent, forKey: "parent")
            }
            try stack.context.save()
            stack.context.reset()
            let children = try stack.fetch("Item", "parent != nil")
            let sorted = CDSortDescriptor.sort(children, by: [CDSortDescriptor(key: "parent.title", selector: .localizedCaseInsensitiveCompare)])
            #expect(sorted.map { $0.value(forKey: "title") as? String } == ["child 1", "child 0", "child 2"])
            let byBytes = CDSortDescriptor.sort(children, by: [CDSortDescriptor(key: "parent.title")])
            #expect(byBytes.map { $0.value(forKey: "title") as? String } == ["child 1", "child 0", "child 2"])
            let descending = CDSortDescriptor.sort(children, by: [CDSortDescriptor(key: "parent.title", ascending: false, selector: .caseInsensitiveCompare)])
            #expect(descending.map { $0.value(forKey: "title") as? String } == ["child 2", "child 0", "child 1"])
        }
    }

    @Test func randomStringsSortConsistentlyUnderEverySelector() {
        let seed = UInt64.random(in: 1...UInt64.max)
        print("SortDescriptorTests.randomStringsSortConsistentlyUnderEverySelector seed: \(seed)")
        var state = seed
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        let pieces = ["a", "A", "b", "é", "E", "ß", "ss", "1", "2", "10", " ", "z"]
        let values: [Any?] = (0..<120).map { _ in
            if next() % 10 == 0 { return nil }
            return (0..<(1 + next() % 4)).map { _ in pieces[next() % pieces.count] }.joined()
        }
        let items = rows(values.map { value in value.map { ["v": $0] } ?? [:] })
        for selector in CDSortDescriptor.Selector.allCases {
            let descriptor = CDSortDescriptor(key: "v", selector: selector)
            let sorted = CDSortDescriptor.sort(items, by: [descriptor])
            #expect(sorted.map(\.number).sorted() == Array(0..<120), "seed \(seed)")
            for (left, right) in zip(sorted, sorted.dropFirst()) {
                let result = descriptor.compare(left, right)
                #expect(result != .orderedDescending, "seed \(seed), \(selector): \(left.values) before \(right.values)")
                #expect(descriptor.compare(right, left) == result.reversed, "seed \(seed), \(selector): asymmetric")
            }
        }
    }
}
