import Foundation

/// A comparison of two expressions: Core Data's `NSComparisonPredicate`
/// (`age >= 18`, `ANY tags.name ==[c] "swift"`, `price BETWEEN {1, 10}`).
public final class CDComparisonPredicate: CDPredicate, @unchecked Sendable {
    // @unchecked Sendable: immutable; every stored property is a `let` of a Sendable type.

    // MARK: - Parts' types

    /// How the left side applies when it is a collection.
    public enum Modifier: Sendable, Hashable, CaseIterable {
        /// Compare the left value itself.
        case direct
        /// `ALL`: every element of the left collection must match.
        case all
        /// `ANY` / `SOME`: at least one element must match. (`NONE` is `NOT ANY`.)
        case any
    }

    /// The comparison made.
    public enum Operator: Sendable, Hashable, CaseIterable {
        case lessThan
        case lessThanOrEqualTo
        case greaterThan
        case greaterThanOrEqualTo
        case equalTo
        case notEqualTo
        /// `MATCHES`: a regular expression matching the whole string.
        case matches
        /// `LIKE`: a pattern with `*` and `?` wildcards.
        case like
        case beginsWith
        case endsWith
        /// `IN`: the left value is an element of the right collection (or substring of a string).
        case `in`
        /// `CONTAINS`: the left collection (or string) contains the right value.
        case contains
        /// `BETWEEN`: within the right side's `{lower, upper}` bounds, inclusive.
        case between
    }

    /// How strings compare: the `[cdn]` flags after an operator.
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// `[c]`: ignore case.
        public static let caseInsensitive = Options(rawValue: 1 << 0)
        /// `[d]`: ignore diacritics.
        public static let diacriticInsensitive = Options(rawValue: 1 << 1)
        /// `[n]`: the strings are already normalized (a speed hint; no other effect).
        public static let normalized = Options(rawValue: 1 << 2)
    }

    // MARK: - Parts

    /// The left side.
    public let leftExpression: CDExpression
    /// The right side.
    public let rightExpression: CDExpression
    /// Direct, `ANY` or `ALL`.
    public let comparisonPredicateModifier: Modifier
    /// The comparison made.
    public let predicateOperatorType: Operator
    /// String comparison flags.
    public let options: Options

    /// A comparison of `leftExpression` with `rightExpression`.
    public init(
        leftExpression: CDExpression,
        rightExpression: CDExpression,
        modifier: Modifier = .direct,
        type: Operator,
        options: Options = []
    ) {
        self.leftExpression = leftExpression
        self.rightExpression = rightExpression
        self.comparisonPredicateModifier = modifier
        self.predicateOperatorType = type
        self.options = options
        super.init()
    }

    public override var kind: Kind { .comparison(self) }
}
