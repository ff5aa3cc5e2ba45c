import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

extension TestStack {
    /// A small family of samples for to-many predicates, saved and reset:
    ///
    /// ```
    /// p1 "Alpha" 10 ─┬─ c1 "apple" 1 ── g1 "grape" 7
    ///                ├─ c2 "Banana" 2
    ///                └─ c3 nil 3
    /// p2 "beta" 20 ──── c4 "Ápple" 5
    /// p3 "Gamma" 30
    /// ```
    static func family(_ kind: StoreKind) throws -> TestStack {
        let stack = try TestStack(model: Models.samples(), kind: kind)
        try stack.context.performAndWait {
            let p1 = stack.insert("Sample", ["key": "p1", "string": "Alpha", "int64": 10])
            let p2 = stack.insert("Sample", ["key": "p2", "string": "beta", "int64": 20])
            _ = stack.insert("Sample", ["key": "p3", "string": "Gamma", "int64": 30])
            let c1 = stack.insert("Sample", ["key": "c1", "string": "apple", "int64": 1, "parent": p1])
            _ = stack.insert("Sample", ["key": "c2", "string": "Banana", "int64": 2, "parent": p1])
            _ = stack.insert("Sample", ["key": "c3", "int64": 3, "parent": p1])
            _ = stack.insert("Sample", ["key": "c4", "string": "Ápple", "int64": 5, "parent": p2])
            _ = stack.insert("Sample", ["key": "g1", "string": "grape", "int64": 7, "parent": c1])
            try stack.context.save()
            stack.context.reset()
        }
        return stack
    }

    /// Samples s0… holding these strings (nil for none), saved and reset.
    static func strings(_ kind: StoreKind, _ strings: [String?]) throws -> TestStack {
        let stack = try TestStack(model: Models.samples(), kind: kind)
        try stack.context.performAndWait {
            for (index, string) in strings.enumerated() { _ = stack.insert("Sample", ["key": "s\(index)", "string": string, "int64": index]) }
            try stack.context.save()
            stack.context.reset()
        }
        return stack
    }

    /// The keys, sorted, of the samples matching `format`.
    func matching(_ format: String, _ arguments: Any?...) throws -> [String] {
        try keys(request(format, arguments, sortedBy: ["key"]))
    }

    /// The keys, sorted, of the samples matching `predicate`.
    func matching(_ predicate: CDPredicate) throws -> [String] {
        let request = try request(sortedBy: ["key"])
        request.predicate = predicate
        return try keys(request)
    }

    /// The error a fetch of `format` throws.
    func fetchError(_ format: String, _ arguments: Any?...) throws -> CoreDataError {
        let request = try request(format, arguments)
        return try #require(throws: CoreDataError.self) { try self.keys(request) }
    }
}
