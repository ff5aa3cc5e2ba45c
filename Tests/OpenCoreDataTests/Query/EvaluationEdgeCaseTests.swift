import Foundation
import Synchronization
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// What must not trap: deep trees, overflow, NaN, wrong types, unknown keys, empty and
/// nil-holding collections, mixed numeric types.
@Suite struct EvaluationEdgeCaseTests {
    private typealias T = Tree

    // MARK: - Depth

    private enum Outcome: Equatable {
        case value(Bool)
        case error(String)
    }

    /// Evaluates on `["a": 1]` on a thread with a 512 KiB stack, as a secondary thread might have.
    private func evaluateOnSmallStack(_ predicate: CDPredicate) -> Outcome {
        let result = Mutex<Outcome?>(nil)
        let done = DispatchSemaphore(value: 0)
        // The thread borrows the predicate: releasing a deep tree recurses once per level,
        // which must happen here, not on the small stack.
        let borrowed = Unmanaged.passUnretained(predicate)
        let thread = Thread {
            let outcome: Outcome
            do { outcome = .value(try borrowed.takeUnretainedValue().evaluateThrowing(with: ["a": 1])) } catch let error as CoreDataError {
                outcome = .error(error.message)
            } catch {
                outcome = .error("\(error)")
            }
            result.withLock { $0 = outcome }
            done.signal()
        }
        thread.stackSize = 512 * 1024
        thread.start()
        withExtendedLifetime(predicate) { done.wait() }
        return result.withLock { $0 } ?? .error("no result")
    }

    private func nots(_ depth: Int) -> CDPredicate {
        var predicate: CDPredicate = T.key("a").equalTo(1)
        for _ in 0..<depth { predicate = !predicate }
        return predicate
    }

    private func sums(_ depth: Int) -> CDPredicate {
        var expression = T.key("a")
        for _ in 0..<depth { expression = T.fn("add:to:", expression, T.const(1)) }
        return expression.greaterThan(0)
    }

    private func subqueries(_ depth: Int) -> CDPredicate {
        var predicate: CDPredicate = CDExpression.variable("x").equalTo(1)
        for _ in 0..<depth {
            let inner = CDExpression(forSubquery: T.list(T.const(1)), usingIteratorVariable: "x", predicate: predicate)
            predicate = CDExpression(.member(inner, keyPath: "@count")).equalTo(1)
        }
        return predicate
    }

    /// As deep as the parser's nesting limit (100) allows, even in a debug build.
    @Test func treesAsDeepAsParsedOnesEvaluateOnASmallStack() {
        #expect(evaluateOnSmallStack(nots(100)) == .value(true))
        #expect(evaluateOnSmallStack(nots(101)) == .value(false))
        #expect(evaluateOnSmallStack(sums(100)) == .value(true))
        #expect(evaluateOnSmallStack(subqueries(30)) == .value(true))
    }

    @Test func deeperTreesAreErrors() {
        for predicate in [nots(5_000), sums(5_000), subqueries(2_000)] {
            guard case .error(let message) = evaluateOnSmallStack(predicate) else {
                Issue.record("a tree deeper than the limit evaluated")
                continue
            }
            #expect(message.contains("nested"))
        }
    }

    // MARK: - Numbers

    @Test func nanInfinityAndMissingResults() throws {
        let row: [String: Any] = ["nan": Double.nan, "inf": Double.infinity, "n": 1]
        #expect(try !holds(T.key("nan").equalTo(T.key("nan")), row))
        #expect(try holds(T.key("nan").notEqualTo(T.key("nan")), row))
        #expect(try !holds(T.compare(T.key("nan"), .between, T.const([0, 1])), row))
        #expect(try holds(T.key("inf").greaterThan(.int64(.max)), row))
        #expect(try holds(T.fn("divide:by:", T.key("n"), T.const(0)).equalTo(nil), row))
        #expect(try !holds(T.fn("divide:by:", T.key("n"), T.const(0)).greaterThan(0), row))
        #expect(try holds(T.fn("raise:toPower:", T.const(10), T.const(400)).equalTo(T.key("inf")), row))
        #expect(try holds(T.fn("multiply:by:", T.key("inf"), T.const(0)).notEqualTo(0), row), "inf × 0 is NaN")
        let maxima = try #require(try valueOf(T.key("values.@max"), ["values": [1.0, Double.nan, 3.0]]))
        #expect(same(maxima, 3.0))
        #expect((try valueOf(T.key("values.@sum"), ["values": [1.0, Double.nan]]) as? Double)?.isNaN == true)
    }

    @Test func mixedNumericTypesInCollections() throws {
        #expect(try valueOf(T.key("v.@sum"), ["v": [1, 2.5, Decimal(3)] as [Any]]) as? Double == 6.5)
        #expect(try valueOf(T.key("v.@sum"), ["v": [Int16(1), Decimal(2)] as [Any]]) as? Decimal == 3)
        #expect(try valueOf(T.key("v.@sum"), ["v": [true, UInt8(2), Int64(3)] as [Any]]) as? Int64 == 6)
        // An integer total outside 64 bits is an error (SumOverflowTests), not a double.
        #expect(throws: CoreDataError.self) { try valueOf(T.key("v.@sum"), ["v": [Int64.max, 1] as [Any]]) }
        #expect(try valueOf(T.key("v.@avg"), ["v": [Int32(1), 2.0, Decimal(6)] as [Any]]) as? Double == 3)
        #expect(try same(valueOf(T.key("v.@min"), ["v": [Float(2.5), Int8(-1), Decimal(0)] as [Any]]), -1))
        #expect(try holds(T.compare(T.key("v"), .contains, T.const(.decimal(2))), ["v": [1, 2.0]]))
    }

    // MARK: - Wrong types and unknown keys

    @Test func misusedCollectionOperatorsAreErrors() {
        let row: [String: Any] = ["title": "abc", "words": ["a", "b"], "dates": [Date()], "n": 3]
        #expect(failsToEvaluate(T.key("title.@count").equalTo(3), row), "@count applies to collections only")
        #expect(failsToEvaluate(T.key("n.@sum").equalTo(3), row))
        #expect(failsToEvaluate(T.key("words.@sum").equalTo(0), row))
        #expect(failsToEvaluate(T.key("dates.@avg").equalTo(0), row))
        #expect(failsToEvaluate(T.key("words.@median").equalTo(0), row), "not a key-path operator")
        #expect(failsToEvaluate(T.key("words.@min.length").equalTo(0), row), "strings have no keys")
    }

    @Test func unknownKeysOfManagedObjectsAreErrorsNotTraps() throws {
        let stack = try TestStack(model: Models.nestedList(), kind: .inMemory)
        try stack.context.performAndWait {
            let item = stack.insert("Item", ["title": "a"])
            let error = try #require(throws: CoreDataError.self) { try T.key("nosuchkey").equalTo(1).evaluateThrowing(with: item) }
            #expect(error.code == .invalidPredicate && error.key == "nosuchkey")
            #expect(failsToEvaluate(T.compare(T.key("children.nosuchkey"), .equalTo, T.const(1), .any), stack.insert("Item", [:]).settingParent(item)))
            let other = stack.insert("Item", ["title": "b"])
            let sorted = CDSortDescriptor.sort([other, item], by: [CDSortDescriptor(key: "nosuchkey"), CDSortDescriptor(key: "title")])
            #expect(sorted.map { $0.value(forKey: "title") as? String } == ["a", "b"], "an unreadable key sorts as nil")
        }
    }

    // MARK: - Empty and nil

    @Test func emptyCollections() throws {
        let row: [String: Any] = ["none": [Int](), "set": Set<String>()]
        #expect(try same(valueOf(T.key("none.@count"), row), 0))
        #expect(try same(valueOf(T.key("set.@sum"), row), 0))
        #expect(try valueOf(T.key("none.@avg"), row) == nil)
        #expect(try valueOf(T.key("none.@min"), row) == nil)
        #expect(try valueOf(CDExpression(.index(T.key("none"), .last)), row) == nil)
        #expect(try !holds(T.compare(T.key("set"), .equalTo, T.const(1), .any), row))
        #expect(try holds(T.compare(T.key("set"), .equalTo, T.const(1), .all), row))
        let sub = CDExpression(forSubquery: T.key("none"), usingIteratorVariable: "x", predicate: CDPredicate(value: true))
        #expect(try holds(CDExpression(.member(sub, keyPath: "@count")).equalTo(0), row))
        let fromNil = CDExpression(forSubquery: T.key("missing"), usingIteratorVariable: "x", predicate: CDPredicate(value: true))
        #expect(try holds(CDExpression(.member(fromNil, keyPath: "@count")).equalTo(0), row))
        #expect(failsToEvaluate(CDExpression(.member(CDExpression(forSubquery: T.const(3), usingIteratorVariable: "x", predicate: CDPredicate(value: true)), keyPath: "@count")).equalTo(0), row))
    }

    @Test func nilsInCollections() throws {
        let row: [String: Any] = ["v": [1, nil, 3] as [Int?], "objects": [["t": "a"], ["u": 1], ["t": nil] as [String: Any?]]]
        #expect(try same(valueOf(T.key("v.@count"), row), 2), "nils are ignored")
        #expect(try same(valueOf(T.key("v.@sum"), row), 4))
        #expect(try same(valueOf(T.key("v.@avg"), row), 2.0))
        #expect(try same(valueOf(CDExpression(.index(T.key("v"), .size)), row), 3), "positions count nils")
        #expect(try valueOf(CDExpression(.index(T.key("v"), .expression(T.const(1)))), row) == nil)
        #expect(try same(valueOf(T.key("objects.t.@count"), row), 1))
        #expect(try holds(T.compare(T.key("v"), .contains, T.const(nil)), row))
        #expect(try !holds(T.compare(T.key("objects.t"), .equalTo, T.const(nil), .any), row), "key paths drop nils")
    }

    // MARK: - Unicode folding

    @Test func unicodeFolding() throws {
        let row: [String: Any] = ["s": "ÉCOLE Straße", "greek": "ΣΊΣΥΦΟΣ"]
        #expect(try holds(T.compare(T.key("s"), .beginsWith, T.const("ecole"), .direct, [.caseInsensitive, .diacriticInsensitive]), row))
        #expect(try !holds(T.compare(T.key("s"), .beginsWith, T.const("ecole"), .direct, .caseInsensitive), row))
        #expect(try holds(T.compare(T.key("s"), .endsWith, T.const("STRASSE"), .direct, .caseInsensitive), row))
        #expect(try holds(T.compare(T.key("greek"), .contains, T.const("σισυ"), .direct, [.caseInsensitive, .diacriticInsensitive]), row))
        #expect(try holds(T.compare(T.key("s"), .like, T.const("?cole*"), .direct, [.caseInsensitive, .diacriticInsensitive]), row))
    }
}

private extension ManagedObject {
    func settingParent(_ parent: ManagedObject) -> ManagedObject {
        setValue(parent, forKey: "parent")
        return parent
    }
}
