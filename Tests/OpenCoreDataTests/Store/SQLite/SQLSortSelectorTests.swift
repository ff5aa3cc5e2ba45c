import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Sort selectors in fetches: the SQLite store orders strings through collations that
/// call `StringOrdering`, so both stores give the in-memory sort's order.
@Suite struct SQLSortSelectorTests {
    static let strings: [String?] = ["file10", "file2", "File1", "apple", "Apple", "Éclair", "eclair", nil, "straße", "STRASSE"]

    func keys(_ stack: TestStack, _ descriptors: [CDSortDescriptor]) throws -> [String] {
        let request = try stack.request()
        request.sortDescriptors = descriptors + [CDSortDescriptor(key: "key")]
        return try stack.keys(request)
    }

    func strings(_ stack: TestStack, _ keys: [String]) -> [String] {
        keys.map { key in Self.strings[Int(key.dropFirst())!] ?? "nil" }
    }

    @Test(arguments: StoreKind.allCases)
    func compareOrdersBytesAndCaseInsensitiveFoldsCase(kind: StoreKind) throws {
        let stack = try TestStack.strings(kind, Self.strings)
        let bytes = try keys(stack, [CDSortDescriptor(key: "string")])
        #expect(strings(stack, bytes) == ["nil", "Apple", "File1", "STRASSE", "apple", "eclair", "file10", "file2", "straße", "Éclair"])
        let folded = try keys(stack, [CDSortDescriptor(key: "string", ascending: false, selector: .caseInsensitiveCompare)])
        #expect(strings(stack, folded) == ["Éclair", "straße", "STRASSE", "file2", "file10", "File1", "eclair", "apple", "Apple", "nil"])
    }

    @Test(arguments: StoreKind.allCases)
    func localizedStandardCompareOrdersNumbersByValue(kind: StoreKind) throws {
        let stack = try TestStack.strings(kind, Self.strings)
        let ordered = strings(stack, try keys(stack, [CDSortDescriptor(key: "string", selector: .localizedStandardCompare)]))
        #expect(ordered.first == "nil")
        #expect(ordered.firstIndex(of: "File1")! < ordered.firstIndex(of: "file2")!)
        #expect(ordered.firstIndex(of: "file2")! < ordered.firstIndex(of: "file10")!)
    }

    /// Every selector, both directions, directly and through a to-one path: the store's
    /// order is the in-memory sort's.
    @Test(arguments: StoreKind.allCases)
    func everySelectorMatchesTheInMemorySort(kind: StoreKind) throws {
        let stack = try TestStack.strings(kind, Self.strings)
        try stack.context.performAndWait {
            let objects = try stack.context.fetch(stack.request(sortedBy: ["key"]))
            for (index, object) in objects.enumerated() { object.setValue(objects[(index + 3) % objects.count], forKey: "parent") }
            try stack.context.save()
        }
        let objects = try stack.context.performAndWait { try stack.context.fetch(stack.request(sortedBy: ["key"])) }
        for selector in CDSortDescriptor.Selector.allCases {
            for ascending in [true, false] {
                for key in ["string", "parent.string", "int64"] {
                    let descriptors = [CDSortDescriptor(key: key, ascending: ascending, selector: selector), CDSortDescriptor(key: "key")]
                    let expected = stack.context.performAndWait {
                        CDSortDescriptor.sort(objects, by: descriptors).map { $0.value(forKey: "key") as? String ?? "" }
                    }
                    #expect(try keys(stack, descriptors) == expected, "\(key) \(selector) \(ascending)")
                }
            }
        }
    }
}
