import Foundation
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Random predicate trees of every shape the parser produces (so each must survive
/// print → parse unchanged), from a seeded generator.
struct RandomPredicateTrees {
    var random: SeededRandom

    init(_ random: SeededRandom) { self.random = random }

    private mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    private mutating func pick<T>(_ options: [T]) -> T { random.pick(options) }

    // MARK: - Predicates

    mutating func predicate(depth: Int) -> CDPredicate {
        switch depth <= 0 ? int(0...1) : int(0...9) {
        case 0: return CDPredicate(value: int(0...1) == 1)
        case 1...5: return comparison(depth: depth - 1)
        case 6: return !predicate(depth: depth - 1)
        default:
            let operands = (0..<int(2...4)).map { _ in predicate(depth: depth - 1) }
            return CDCompoundPredicate(type: int(0...1) == 0 ? .and : .or, subpredicates: operands)
        }
    }

    private mutating func comparison(depth: Int) -> CDComparisonPredicate {
        let options = CDComparisonPredicate.Options(rawValue: UInt8(int(0...7)))
        let type = pick(CDComparisonPredicate.Operator.allCases)
        var right = expression(depth: depth)
        let literalCount: Int? = switch right.kind {
        case .aggregate(let elements): elements.count
        case .constantValue(.array(let values)): values.count
        default: nil
        }
        if type == .between, let literalCount, literalCount != 2 {
            // The parser checks that literal bounds are two.
            right = .constant(.array([value(), value()]))
        }
        return expression(depth: depth).compare(
            type, right,
            modifier: pick(CDComparisonPredicate.Modifier.allCases), options: int(0...2) == 0 ? options : []
        )
    }

    // MARK: - Expressions

    mutating func expression(depth: Int) -> CDExpression {
        guard depth > 0 else { return leaf() }
        switch int(0...15) {
        case 0...3: return leaf()
        case 4: return CDExpression(.member(wrappingBase(depth: depth - 1), keyPath: keyPath()))
        case 5: return CDExpression(.index(expression(depth: depth - 1), index(depth: depth - 1)))
        case 6, 7: return function(depth: depth - 1)
        case 8:
            let arguments = (0..<int(0...2)).map { _ in expression(depth: depth - 1) }
            return CDExpression(.customFunction(target: expression(depth: depth - 1), selector: pick(["f", "pad:with:", "a b"]), arguments: arguments))
        case 9:
            var elements = (0..<int(0...3)).map { _ in expression(depth: depth - 1) }
            elements.insert(.keyPath(keyPath()), at: int(0...elements.count))
            return CDExpression(forAggregate: elements)
        case 10:
            let variable = pick(["x", "item", "AND"])
            return CDExpression(forSubquery: expression(depth: depth - 1), usingIteratorVariable: variable, predicate: predicate(depth: depth - 1))
        case 11:
            return CDExpression(forConditional: predicate(depth: depth - 1), trueExpression: expression(depth: depth - 1), falseExpression: expression(depth: depth - 1))
        case 12: return CDExpression(forUnionSet: expression(depth: depth - 1), with: expression(depth: depth - 1))
        case 13: return CDExpression(forIntersectSet: expression(depth: depth - 1), with: expression(depth: depth - 1))
        case 14: return CDExpression(forMinusSet: expression(depth: depth - 1), with: expression(depth: depth - 1))
        default: return CDExpression(forConstantValue: .array((0..<int(0...3)).map { _ in value() }))
        }
    }

    private mutating func leaf() -> CDExpression {
        switch int(0...9) {
        case 0: return .evaluatedObject
        case 1: return .variable(pick(["x", "VALUE", "AND", "ünï"]))
        case 2: return CDExpression(.anyKey)
        case 3...5: return .keyPath(keyPath())
        default: return .constant(value())
        }
    }

    /// A base that a `.key` wraps in `.member` instead of extending a key path.
    private mutating func wrappingBase(depth: Int) -> CDExpression {
        while true {
            let base = expression(depth: depth)
            switch base.kind {
            case .keyPath, .evaluatedObject, .member: continue
            default: return base
            }
        }
    }

    private mutating func index(depth: Int) -> CDExpression.Index {
        switch int(0...4) {
        case 0: return .first
        case 1: return .last
        case 2: return .size
        default: return .expression(expression(depth: depth))
        }
    }

    private mutating func function(depth: Int) -> CDExpression {
        let name = pick(PredicateFunctions.names)
        var arguments = (0..<PredicateFunctions.arity(of: name)).map { _ in expression(depth: depth) }
        if name == PredicateCast.functionName {
            // A CAST of constants to a known type folds to a constant: keep it a function.
            arguments[1] = int(0...1) == 0 ? .constant("Custom") : .keyPath(keyPath())
        }
        return CDExpression(forFunction: name, arguments: arguments)
    }

    private mutating func keyPath() -> String {
        let keys = ["a", "title", "first", "size", "AND", "ünï", "_x9", "@count", "@sum", "@distinctUnionOfObjects", "IN"]
        return (0..<int(1...3)).map { _ in pick(keys) }.joined(separator: ".")
    }

    // MARK: - Constants

    mutating func value() -> CDValue {
        switch int(0...11) {
        case 0: return .null
        case 1: return .bool(int(0...1) == 1)
        case 2: return .int64(pick([0, 1, -1, .max, .min, Int64(bitPattern: random.next())]))
        case 3:
            return .double(pick([0.5, -0.0, 1e-300, -2.5e300, .infinity, -.infinity, .nan, Double(bitPattern: random.next() >> 2)]))
        case 4: return .decimal(Decimal(string: pick(["0", "-1.5", "12345678901234567890.123", "0.001"]))!)
        case 5, 6:
            let pieces = ["a", "\"", "'", "\\", "\n", "\t", "\u{0}", "\u{7F}", "é", "e\u{301}", "😀", " ", "%@", "$x", "\u{2028}"]
            return .string((0..<int(0...6)).map { _ in pick(pieces) }.joined())
        case 7: return .date(Date(timeIntervalSinceReferenceDate: Double(Int64(bitPattern: random.next()) % 1_000_000_000) / 8))
        case 8: return .data(Data((0..<int(0...9)).map { _ in UInt8(truncatingIfNeeded: random.next()) }))
        case 9:
            let hex = Array(String(format: "%016llX%016llX", random.next(), random.next()))
            let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }
            return .uuid(UUID(uuidString: groups.joined(separator: "-"))!)
        case 10: return .url(URL(string: "https://example.com/p\(int(0...99))?q=\(int(0...9))")!)
        default: return .array((0..<int(0...2)).map { _ in pick([CDValue.int64(1), "s", nil, .array([])]) })
        }
    }
}
