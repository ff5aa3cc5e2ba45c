import Foundation

/// A logical condition on an object: Core Data's `NSPredicate`.
///
/// A predicate is immutable and `Sendable`. It is one of three kinds, which `kind`
/// exposes for exhaustive switching:
/// - a constant: `CDPredicate(value: true)` (`TRUEPREDICATE`) or `FALSEPREDICATE`;
/// - a comparison of two expressions: `CDComparisonPredicate` (`age > 18`);
/// - a compound of other predicates: `CDCompoundPredicate` (`AND`, `OR`, `NOT`).
///
/// Make one from a format string (`try CDPredicate(format: "title == %@", "x")`, which
/// returns the concrete subclass), or in Swift (`.keyPath("age").greaterThan(18) && …`).
/// Two predicates are equal when their trees are equal.
public class CDPredicate: @unchecked Sendable, Hashable, CustomStringConvertible {
    // @unchecked Sendable: only `let`s of Sendable types; not `open`, so all subclasses are ours and immutable.

    /// What a predicate is; switch over it to walk a predicate tree.
    public enum Kind: Sendable {
        /// `TRUEPREDICATE` or `FALSEPREDICATE`.
        case constant(Bool)
        /// A comparison of two expressions.
        case comparison(CDComparisonPredicate)
        /// `AND`, `OR` or `NOT` of other predicates.
        case compound(CDCompoundPredicate)
    }

    /// The value of a constant predicate; unused by subclasses.
    private let constantValue: Bool

    /// A predicate that is always `value`: `TRUEPREDICATE` or `FALSEPREDICATE`.
    public init(value: Bool) {
        constantValue = value
    }

    /// For subclasses, whose `kind` is not a constant.
    init() {
        constantValue = false
    }

    /// The predicate's kind, with the concrete predicate as payload.
    public var kind: Kind { .constant(constantValue) }

    /// The predicate in the format language, canonical: parsing it gives back an equal
    /// predicate (for every predicate the parser can produce).
    public var predicateFormat: String { PredicateFormatPrinter.format(self) }

    public var description: String { predicateFormat }

    // MARK: - Equatable and Hashable

    public static func == (lhs: CDPredicate, rhs: CDPredicate) -> Bool {
        if lhs === rhs { return true }
        switch (lhs.kind, rhs.kind) {
        case let (.constant(left), .constant(right)):
            return left == right
        case let (.comparison(left), .comparison(right)):
            return left.predicateOperatorType == right.predicateOperatorType
                && left.comparisonPredicateModifier == right.comparisonPredicateModifier
                && left.options == right.options
                && left.leftExpression == right.leftExpression
                && left.rightExpression == right.rightExpression
        case let (.compound(left), .compound(right)):
            return left.compoundPredicateType == right.compoundPredicateType
                && left.subpredicates == right.subpredicates
        default:
            return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch kind {
        case .constant(let value):
            hasher.combine(0)
            hasher.combine(value)
        case .comparison(let comparison):
            hasher.combine(1)
            hasher.combine(comparison.predicateOperatorType)
            hasher.combine(comparison.comparisonPredicateModifier)
            hasher.combine(comparison.options)
            hasher.combine(comparison.leftExpression)
            hasher.combine(comparison.rightExpression)
        case .compound(let compound):
            hasher.combine(2)
            hasher.combine(compound.compoundPredicateType)
            hasher.combine(compound.subpredicates)
        }
    }
}

// MARK: - Format strings

/// Lets `CDPredicate(format:)` return the concrete subclass the format describes, as
/// Core Data's `NSPredicate(format:)` does. An implementation detail; do not conform to it.
public protocol CDPredicateFormatParsing {}

extension CDPredicate: CDPredicateFormatParsing {}

extension CDPredicateFormatParsing {
    /// Parses a predicate format string, with `%@` (values) and `%K` (key paths) taken
    /// from `arguments` in order. Throws `.invalidPredicate`, with `offset`, on bad input.
    ///
    /// Called on a subclass (`CDComparisonPredicate(format:)`), it also throws when the
    /// format describes another kind of predicate.
    public init(format: String, _ arguments: Any?...) throws {
        try self.init(format: format, argumentArray: arguments)
    }

    /// Parses a predicate format string with its arguments given as an array.
    public init(format: String, argumentArray arguments: [Any?]) throws {
        let parsed = try PredicateParser.parse(format, arguments: arguments)
        guard let typed = parsed as? Self else {
            throw CoreDataError(
                .invalidPredicate,
                "The format string \"\(format)\" describes a \(type(of: parsed)), not a \(Self.self)"
            )
        }
        self = typed
    }
}
