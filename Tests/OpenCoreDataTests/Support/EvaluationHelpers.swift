import Foundation
import Testing
@testable import OpenCoreData

/// Short builders for predicate trees in evaluation tests (the trees are built in Swift,
/// not parsed, so the tests do not depend on the parser's grammar).
enum Tree {
    static func key(_ path: String) -> CDExpression { .keyPath(path) }
    static func const(_ value: CDValue) -> CDExpression { .constant(value) }
    static func fn(_ name: String, _ arguments: CDExpression...) -> CDExpression {
        CDExpression(forFunction: name, arguments: arguments)
    }
    static func list(_ items: CDExpression...) -> CDExpression { CDExpression(forAggregate: items) }

    static func compare(
        _ left: CDExpression, _ type: CDComparisonPredicate.Operator, _ right: CDExpression,
        _ modifier: CDComparisonPredicate.Modifier = .direct, _ options: CDComparisonPredicate.Options = []
    ) -> CDComparisonPredicate {
        CDComparisonPredicate(leftExpression: left, rightExpression: right, modifier: modifier, type: type, options: options)
    }
}

/// `predicate` evaluated on `object`, checking that the throwing and non-throwing entry
/// points agree.
func holds(_ predicate: CDPredicate, _ object: Any?, variables: [String: Any?] = [:],
           sourceLocation: SourceLocation = #_sourceLocation) throws -> Bool {
    let result = try predicate.evaluateThrowing(with: object, substitutionVariables: variables)
    #expect(predicate.evaluate(with: object, substitutionVariables: variables) == result, sourceLocation: sourceLocation)
    return result
}

/// The value of `expression` for `object`.
func valueOf(_ expression: CDExpression, _ object: Any? = nil, variables: [String: Any?] = [:]) throws -> Any? {
    try expression.expressionValue(with: object, context: variables)
}

/// Whether evaluating `predicate` on `object` throws `.invalidPredicate` (and
/// `evaluate(with:)` is false).
func failsToEvaluate(_ predicate: CDPredicate, _ object: Any?, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    do {
        _ = try predicate.evaluateThrowing(with: object)
        return false
    } catch let error as CoreDataError {
        #expect(!predicate.evaluate(with: object), sourceLocation: sourceLocation)
        return error.code == .invalidPredicate
    } catch {
        return false
    }
}

/// Whether `value` (from `expressionValue`) equals `expected` by the evaluator's rules.
func same(_ value: Any?, _ expected: Any?) -> Bool {
    ValueComparison.isEqual(value, expected)
}
