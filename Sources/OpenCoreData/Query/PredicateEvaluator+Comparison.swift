import Foundation

/// Comparison predicates: the modifiers (`ANY`, `ALL`) and every operator, with the
/// `[cdn]` options. The rules are listed on `PredicateEvaluator`.
extension PredicateEvaluator {
    typealias Options = CDComparisonPredicate.Options

    static func evaluate(_ comparison: CDComparisonPredicate, in scope: EvaluationScope) throws -> Bool {
        let left = try value(of: comparison.leftExpression, in: scope)
        let right = try value(of: comparison.rightExpression, in: scope)
        let type = comparison.predicateOperatorType
        let options = comparison.options
        try checkRightSide(right, of: type, options)
        switch comparison.comparisonPredicateModifier {
        case .direct:
            return try compare(left, type, right, options)
        case .any:
            for element in try elements(ofModified: left, in: comparison) where try compare(element, type, right, options) {
                return true
            }
            return false
        case .all:
            for element in try elements(ofModified: left, in: comparison) where try !compare(element, type, right, options) {
                return false
            }
            return true
        }
    }

    /// Reports a bad `MATCHES` pattern or `BETWEEN` bounds whatever the left side holds,
    /// so that the error does not depend on the data (an empty `ANY` collection, a `nil`).
    private static func checkRightSide(_ right: Any?, of type: CDComparisonPredicate.Operator, _ options: Options) throws {
        switch type {
        case .matches:
            if let pattern = string(right) { _ = try StringMatching.matches("", pattern, options) }
        case .between:
            _ = try isBetween(nil, right)
        default:
            return
        }
    }

    /// The elements an `ANY` or `ALL` comparison iterates over.
    private static func elements(ofModified left: Any?, in comparison: CDComparisonPredicate) throws -> [Any?] {
        guard let left = CDValue.flattenOptional(left) else { return [] }
        guard let collection = EvaluatedCollection(left) else {
            throw CoreDataError(
                .invalidPredicate,
                "The left side of an ANY or ALL comparison must be a collection, not a value of type \(type(of: left)) (in \(comparison.predicateFormat))"
            )
        }
        return collection.elements
    }

    // MARK: - Operators

    /// `left <type>[options] right` for two values.
    static func compare(_ left: Any?, _ type: CDComparisonPredicate.Operator, _ right: Any?, _ options: Options) throws -> Bool {
        switch type {
        case .equalTo: return isEqual(left, right, options)
        case .notEqualTo: return !isEqual(left, right, options)
        case .lessThan: return order(left, right, options) == .orderedAscending
        case .lessThanOrEqualTo: return [.orderedAscending, .orderedSame].contains(order(left, right, options))
        case .greaterThan: return order(left, right, options) == .orderedDescending
        case .greaterThanOrEqualTo: return [.orderedDescending, .orderedSame].contains(order(left, right, options))
        case .beginsWith:
            guard let (text, prefix) = strings(left, right) else { return false }
            return StringMatching.beginsWith(text, prefix, options)
        case .endsWith:
            guard let (text, suffix) = strings(left, right) else { return false }
            return StringMatching.endsWith(text, suffix, options)
        case .like:
            guard let (text, pattern) = strings(left, right) else { return false }
            return StringMatching.like(text, pattern, options)
        case .matches:
            guard let (text, pattern) = strings(left, right) else { return false }
            return try StringMatching.matches(text, pattern, options)
        case .contains:
            return try contains(left, right, options, operator: "CONTAINS")
        case .in:
            return try contains(right, left, options, operator: "IN")
        case .between:
            return try isBetween(left, right)
        }
    }

    /// `==` with options: folded strings when both sides are strings and `[c]` or `[d]`
    /// is set, `ValueComparison` otherwise.
    static func isEqual(_ left: Any?, _ right: Any?, _ options: Options) -> Bool {
        if !options.subtracting(.normalized).isEmpty, let (a, b) = strings(left, right) {
            return StringMatching.equals(a, b, options)
        }
        return ValueComparison.isEqual(left, right)
    }

    /// How two values order, with strings folded under `[c]` / `[d]`.
    private static func order(_ left: Any?, _ right: Any?, _ options: Options) -> ComparisonResult? {
        if !options.subtracting(.normalized).isEmpty, let (a, b) = strings(left, right) {
            return ValueComparison.order(.string(StringMatching.fold(a, options)), .string(StringMatching.fold(b, options)))
        }
        return ValueComparison.order(left, right)
    }

    /// Whether `container` (a collection, a dictionary's values, or a string) contains
    /// `element`.
    private static func contains(_ container: Any?, _ element: Any?, _ options: Options, operator name: String) throws -> Bool {
        guard let container = CDValue.flattenOptional(container) else { return false }
        if let text = string(container) {
            guard let part = string(element) else { return false }
            return StringMatching.contains(text, part, options)
        }
        if let dictionary = container as? [String: Any] {
            return dictionary.values.contains { isEqual($0, element, options) }
        }
        guard let collection = EvaluatedCollection(container) else {
            throw CoreDataError(
                .invalidPredicate,
                "\(name) needs a collection or a string, not a value of type \(type(of: container))"
            )
        }
        return collection.elements.contains { isEqual($0, element, options) }
    }

    /// `value BETWEEN {lower, upper}`.
    private static func isBetween(_ value: Any?, _ bounds: Any?) throws -> Bool {
        guard let collection = EvaluatedCollection(bounds), collection.elements.count == 2 else {
            throw CoreDataError(.invalidPredicate, "BETWEEN needs a collection of two bounds, {lower, upper}")
        }
        guard let low = ValueComparison.order(value, collection.elements[0]),
              let high = ValueComparison.order(value, collection.elements[1]) else { return false }
        return low != .orderedAscending && high != .orderedDescending
    }

    // MARK: - Strings

    /// `value` as a string, when it is one.
    static func string(_ value: Any?) -> String? {
        switch CDValue.flattenOptional(value) {
        case let text as String: return text
        case let text as Substring: return String(text)
        case let constant as CDValue:
            if case .string(let text) = constant { return text }
            return nil
        default: return nil
        }
    }

    private static func strings(_ left: Any?, _ right: Any?) -> (String, String)? {
        guard let a = string(left), let b = string(right) else { return nil }
        return (a, b)
    }
}
