import Foundation

// MARK: - Comparisons from expressions

/// Builds comparisons without format strings:
/// `CDExpression.keyPath("age").greaterThanOrEqualTo(.constant(18))`.
extension CDExpression {
    /// A comparison of this expression (left) with `other` (right).
    public func compare(
        _ type: CDComparisonPredicate.Operator,
        _ other: CDExpression,
        modifier: CDComparisonPredicate.Modifier = .direct,
        options: CDComparisonPredicate.Options = []
    ) -> CDComparisonPredicate {
        CDComparisonPredicate(leftExpression: self, rightExpression: other, modifier: modifier, type: type, options: options)
    }

    /// `self == other`.
    public func equalTo(_ other: CDExpression) -> CDComparisonPredicate { compare(.equalTo, other) }
    /// `self != other`.
    public func notEqualTo(_ other: CDExpression) -> CDComparisonPredicate { compare(.notEqualTo, other) }
    /// `self < other`.
    public func lessThan(_ other: CDExpression) -> CDComparisonPredicate { compare(.lessThan, other) }
    /// `self <= other`.
    public func lessThanOrEqualTo(_ other: CDExpression) -> CDComparisonPredicate {
        compare(.lessThanOrEqualTo, other)
    }
    /// `self > other`.
    public func greaterThan(_ other: CDExpression) -> CDComparisonPredicate { compare(.greaterThan, other) }
    /// `self >= other`.
    public func greaterThanOrEqualTo(_ other: CDExpression) -> CDComparisonPredicate {
        compare(.greaterThanOrEqualTo, other)
    }

    /// `self == value`, for a constant.
    public func equalTo(_ value: CDValue) -> CDComparisonPredicate { compare(.equalTo, .constant(value)) }
    /// `self != value`, for a constant.
    public func notEqualTo(_ value: CDValue) -> CDComparisonPredicate { compare(.notEqualTo, .constant(value)) }
    /// `self < value`, for a constant.
    public func lessThan(_ value: CDValue) -> CDComparisonPredicate { compare(.lessThan, .constant(value)) }
    /// `self <= value`, for a constant.
    public func lessThanOrEqualTo(_ value: CDValue) -> CDComparisonPredicate {
        compare(.lessThanOrEqualTo, .constant(value))
    }
    /// `self > value`, for a constant.
    public func greaterThan(_ value: CDValue) -> CDComparisonPredicate { compare(.greaterThan, .constant(value)) }
    /// `self >= value`, for a constant.
    public func greaterThanOrEqualTo(_ value: CDValue) -> CDComparisonPredicate {
        compare(.greaterThanOrEqualTo, .constant(value))
    }
}

// MARK: - String and collection operators

extension CDExpression {
    /// `self LIKE[options] pattern` (`*` and `?` wildcards).
    public func like(_ pattern: CDExpression, options: CDComparisonPredicate.Options = []) -> CDComparisonPredicate {
        compare(.like, pattern, options: options)
    }
    /// `self MATCHES[options] regex`.
    public func matches(_ regex: CDExpression, options: CDComparisonPredicate.Options = []) -> CDComparisonPredicate {
        compare(.matches, regex, options: options)
    }
    /// `self BEGINSWITH[options] prefix`.
    public func beginsWith(_ prefix: CDExpression, options: CDComparisonPredicate.Options = []) -> CDComparisonPredicate {
        compare(.beginsWith, prefix, options: options)
    }
    /// `self ENDSWITH[options] suffix`.
    public func endsWith(_ suffix: CDExpression, options: CDComparisonPredicate.Options = []) -> CDComparisonPredicate {
        compare(.endsWith, suffix, options: options)
    }
    /// `self CONTAINS[options] element`: a collection's element or a string's substring.
    public func contains(_ element: CDExpression, options: CDComparisonPredicate.Options = []) -> CDComparisonPredicate {
        compare(.contains, element, options: options)
    }
    /// `self IN[options] collection`.
    public func `in`(_ collection: CDExpression, options: CDComparisonPredicate.Options = []) -> CDComparisonPredicate {
        compare(.in, collection, options: options)
    }
    /// `self BETWEEN {lower, upper}`, bounds included.
    public func between(_ lower: CDValue, and upper: CDValue) -> CDComparisonPredicate {
        compare(.between, .constant(.array([lower, upper])))
    }

    /// `NONE self op other`: no element of the collection matches (`NOT ANY`).
    public func none(
        _ type: CDComparisonPredicate.Operator, _ other: CDExpression, options: CDComparisonPredicate.Options = []
    ) -> CDCompoundPredicate {
        !compare(type, other, modifier: .any, options: options)
    }
}

// MARK: - Arithmetic

/// Arithmetic on expressions, as the format language's operators build it
/// (`a + b` is the function `add:to:`, `-a` is `0 - a`).
extension CDExpression {
    /// `lhs + rhs`.
    public static func + (lhs: CDExpression, rhs: CDExpression) -> CDExpression {
        CDExpression(forFunction: "add:to:", arguments: [lhs, rhs])
    }
    /// `lhs - rhs`.
    public static func - (lhs: CDExpression, rhs: CDExpression) -> CDExpression {
        CDExpression(forFunction: "from:subtract:", arguments: [lhs, rhs])
    }
    /// `lhs * rhs`.
    public static func * (lhs: CDExpression, rhs: CDExpression) -> CDExpression {
        CDExpression(forFunction: "multiply:by:", arguments: [lhs, rhs])
    }
    /// `lhs / rhs` (always a floating-point result).
    public static func / (lhs: CDExpression, rhs: CDExpression) -> CDExpression {
        CDExpression(forFunction: "divide:by:", arguments: [lhs, rhs])
    }
    /// `-operand`, which the format language writes `0 - operand`.
    public static prefix func - (operand: CDExpression) -> CDExpression {
        CDExpression(forFunction: "from:subtract:", arguments: [.constant(0), operand])
    }
}

// MARK: - Logical operators

extension CDPredicate {
    /// `lhs AND rhs`.
    public static func && (lhs: CDPredicate, rhs: CDPredicate) -> CDCompoundPredicate {
        CDCompoundPredicate(andPredicateWithSubpredicates: [lhs, rhs])
    }

    /// `lhs OR rhs`.
    public static func || (lhs: CDPredicate, rhs: CDPredicate) -> CDCompoundPredicate {
        CDCompoundPredicate(orPredicateWithSubpredicates: [lhs, rhs])
    }

    /// `NOT predicate`.
    public static prefix func ! (predicate: CDPredicate) -> CDCompoundPredicate {
        CDCompoundPredicate(notPredicateWithSubpredicate: predicate)
    }
}
