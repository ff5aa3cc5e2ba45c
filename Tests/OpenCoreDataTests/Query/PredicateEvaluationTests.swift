import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Real managed objects of the nested-list model, in an in-memory store.
private func items(_ titles: [String?]) throws -> (TestStack, [ManagedObject]) {
    let stack = try TestStack(model: Models.nestedList(), kind: .inMemory)
    let objects = titles.map { title in stack.insert("Item", title.map { ["title": $0] } ?? [:]) }
    return (stack, objects)
}

/// A plain `KeyValueCoding` type that is not a managed object.
private struct Point: KeyValueCoding {
    var x: Int
    var label: String?
    func value(forKey key: String) -> Any? {
        switch key {
        case "x": return x
        case "label": return label
        default: return nil
        }
    }
}

@Suite struct PredicateEvaluationTests {

    private func matches(_ format: String, _ object: Any?, _ arguments: Any?...) throws -> Bool {
        let predicate = try CDPredicate(format: format, argumentArray: arguments)
        let result = try predicate.evaluateThrowing(with: object)
        #expect(predicate.evaluate(with: object) == result)
        return result
    }

    // MARK: - Objects and key paths

    @Test func dictionariesAndKeyValueCodingObjects() throws {
        let row: [String: Any] = ["title": "Milk", "count": 3]
        #expect(try matches("title == 'Milk' AND count > 2", row))
        #expect(try !matches("title == 'Bread'", row))
        #expect(try matches("x == 4 AND label == nil", Point(x: 4, label: nil)))
        #expect(try matches("label == 'p'", Point(x: 4, label: "p")))
        let (stack, objects) = try items(["Eggs"])
        #expect(try matches("title == %@", objects[0], "Eggs"))
        #expect(try matches("parent == nil", objects[0]))
        _ = stack
    }

    @Test func dottedToOnePaths() throws {
        let (stack, objects) = try items(["Root", "Mid", "Leaf"])
        let (grandparent, parent, child) = (objects[0], objects[1], objects[2])
        parent.setValue(grandparent, forKey: "parent")
        child.setValue(parent, forKey: "parent")
        defer { _ = stack }
        #expect(try matches("parent.parent.title == 'Root'", child))
        #expect(try matches("parent.title == 'Mid'", child))
        #expect(try matches("parent.parent.title == nil", parent))
        #expect(try matches("parent.parent.parent.title == nil", child))
        let nested: [String: Any] = ["point": Point(x: 1, label: "a"), "inner": ["deep": 5] as [String: Any]]
        #expect(try matches("point.x == 1 AND inner.deep == 5", nested))
        #expect(try !matches("point.label < 'a'", nested))
    }

    @Test func readingAKeyOfAPlainValueIsAnError() throws {
        let error = try #require(throws: CoreDataError.self) {
            try CDPredicate(format: "title.length == 3").evaluateThrowing(with: ["title": "abc"])
        }
        #expect(error.code == .invalidPredicate)
        #expect(error.message.contains("length"))
        #expect(try CDPredicate(format: "title.length == 3").evaluate(with: ["title": "abc"]) == false)
    }

    // MARK: - Numbers

    @Test func numbersOfDifferentTypesCompareByValue() throws {
        let row: [String: Any] = [
            "i16": Int16(7), "i32": Int32(-2), "u8": UInt8(200), "u64": UInt64.max, "f": Float(0.5),
            "d": 2.0, "dec": Decimal(string: "2.50")!, "yes": true, "big": Int64(9_007_199_254_740_993),
            "ns": NSNumber(value: 7),
        ]
        #expect(try matches("i16 == 7 AND i16 == 7.0 AND i16 == %@", row, Decimal(7)))
        #expect(try matches("i32 < 0 AND i32 == %@", row, Int8(-2)))
        #expect(try matches("u8 > 199 AND u8 == %@", row, Int64(200)))
        #expect(try matches("u64 > 9223372036854775807 AND u64 == %@", row, UInt64.max))
        #expect(try matches("f == 0.5 AND f < 1", row))
        #expect(try matches("d == 2 AND d == %@ AND d < dec", row, Int16(2)))
        #expect(try matches("dec == 2.5 AND dec == %@ AND dec > 2", row, Decimal(string: "2.5")!))
        #expect(try matches("yes == 1 AND yes == TRUE AND yes > 0", row))
        #expect(try matches("ns == i16", row))
        // 2^53 + 1 is not the double 2^53: integers are not rounded.
        #expect(try !matches("big == %@", row, 9_007_199_254_740_992.0))
        #expect(try matches("big > %@", row, 9_007_199_254_740_992.0))
        #expect(try matches("big < %@", row, 9_007_199_254_740_994.0))
        #expect(try !matches("d == %@", row, Double.nan))
        #expect(try !matches("d < %@ OR d >= %@", row, Double.nan, Double.nan))
    }

    // MARK: - Other types

    @Test func stringsDatesAndIdentifiers() throws {
        let uuid = UUID()
        let date = Date(timeIntervalSinceReferenceDate: 1000)
        let row: [String: Any] = [
            "name": "b", "when": date, "id": uuid, "link": URL(string: "https://a.org")!, "blob": Data([1, 2]),
        ]
        #expect(try matches("name > 'a' AND name < 'c' AND name >= 'b' AND name <= 'b'", row))
        #expect(try !matches("name == 'B'", row))
        #expect(try matches("when == %@ AND when > %@", row, date, date.addingTimeInterval(-1)))
        #expect(try matches("id == %@ AND id != %@", row, uuid, UUID()))
        #expect(try matches("link == %@", row, URL(string: "https://a.org")!))
        #expect(try matches("blob == %@ AND blob != %@", row, Data([1, 2]), Data([1])))
        // Unicode scalars, literally: a decomposed é is not the precomposed one.
        #expect(try !matches("name == %@", ["name": "\u{E9}"], "e\u{301}"))
        #expect(try matches("name < %@", ["name": "Z"], "a"))
    }

    @Test func unrelatedTypesAreUnequalAndUnordered() throws {
        let row: [String: Any] = ["n": 5, "s": "5", "d": Date(timeIntervalSinceReferenceDate: 5)]
        #expect(try !matches("n == '5'", row))
        #expect(try matches("n != '5'", row))
        #expect(try !matches("s < 6 OR s > 4 OR s <= 5 OR s >= 5", row))
        #expect(try !matches("d == 5 OR d > 4", row))
    }

    // MARK: - nil

    @Test func nilSemantics() throws {
        let row: [String: Any] = ["n": 5]
        #expect(try matches("missing == nil AND nil == missing", row))
        #expect(try matches("missing != 5 AND 5 != missing AND n != nil", row))
        #expect(try !matches("missing < 5 OR missing > 5 OR missing <= 5 OR missing >= 5", row))
        #expect(try !matches("missing <= nil OR missing >= nil OR missing < nil", row))
        #expect(try !matches("n == nil", row))
        #expect(try matches("missing == nil", nil))
        #expect(try matches("title == nil", ["title": Optional<String>.none as Any]))
        #expect(try matches("title == nil", ["title": NSNull()]))
    }

    // MARK: - Objects and IDs

    @Test func managedObjectsCompareAsTheirObjectIDs() throws {
        let (stack, objects) = try items(["target", "other", "child"])
        let (target, other, child) = (objects[0], objects[1], objects[2])
        child.setValue(target, forKey: "parent")
        defer { _ = stack }
        #expect(try matches("parent == %@", child, target.objectID))
        #expect(try matches("parent == %@", child, target))
        #expect(try !matches("parent == %@", child, other))
        #expect(try matches("SELF == %@ AND SELF != %@", target, target.objectID, other))
        #expect(try matches("SELF == %@", Point(x: 1), 1) == false)
    }

    // MARK: - Logic

    @Test func compoundsAndConstants() throws {
        let row: [String: Any] = ["a": 1, "b": 2]
        #expect(try matches("TRUEPREDICATE", nil))
        #expect(try !matches("FALSEPREDICATE", nil))
        #expect(try matches("a == 1 AND NOT b == 1", row))
        #expect(try matches("a == 2 OR b == 2", row))
        #expect(try !matches("NOT (a == 1 OR b == 5)", row))
        #expect(CDCompoundPredicate(andPredicateWithSubpredicates: []).evaluate(with: row))
        #expect(!CDCompoundPredicate(orPredicateWithSubpredicates: []).evaluate(with: row))
        #expect(CDCompoundPredicate(type: .not, subpredicates: [CDPredicate(value: true), CDPredicate(value: false)]).evaluate(with: nil))
        // Short circuits: the failing second operand is never evaluated.
        let unsupported = CDExpression.variable("unbound").equalTo(1)
        #expect((CDPredicate(value: false) && unsupported).evaluate(with: row) == false)
        #expect((CDPredicate(value: true) || unsupported).evaluate(with: row))
    }

    @Test func whatCannotBeEvaluatedIsATypedError() throws {
        let predicates: [CDPredicate] = [
            CDExpression.variable("X").equalTo(1),
            CDExpression(.anyKey).equalTo(1),
            CDExpression(forFunction: "noSuchFunction:", arguments: [.keyPath("a")]).equalTo(1),
            CDExpression.keyPath("a.@count").equalTo(3),
            CDExpression.keyPath("a").compare(.equalTo, .constant(1), modifier: .any),
            CDExpression.keyPath("list.x.y").equalTo(1),
        ]
        let row: [String: Any] = ["a": "xyz", "list": [["x": 1]]]
        for predicate in predicates {
            let error = try #require(throws: CoreDataError.self, "\(predicate)") { try predicate.evaluateThrowing(with: row) }
            #expect(error.code == .invalidPredicate)
            #expect(!predicate.evaluate(with: row))
        }
    }
}
