import Foundation

/// One side of a comparison: a constant, a key path, the evaluated object, a variable,
/// a function, an aggregate, a subquery… — Core Data's `NSExpression`, as an immutable value.
///
/// Build one with the Core Data–named initializers (`CDExpression(forKeyPath: "title")`)
/// or the short static forms (`.keyPath("title")`, `.constant("x")`), or get them from
/// `CDPredicate(format:)`. Inspect one by switching over `kind`.
public struct CDExpression: Sendable, Hashable {
    /// What the expression is, with its parts; switch over it to walk a predicate tree.
    public indirect enum Kind: Sendable, Hashable {
        /// A constant (`42`, `"text"`, `nil`, a `%@` argument).
        case constantValue(CDValue)
        /// The object being evaluated (`SELF`).
        case evaluatedObject
        /// A substitution variable (`$NAME`), replaced before evaluation.
        case variable(String)
        /// A `.`-separated key path read from the evaluated object (`parent.title`, `items.@count`).
        case keyPath(String)
        /// A key path read from another expression's value (`$x.name`, `SUBQUERY(…).@count`).
        case member(CDExpression, keyPath: String)
        /// An element of a collection (`items[FIRST]`, `tags[2]`, `dict['key']`).
        case index(CDExpression, Index)
        /// A built-in function by its Core Data name (`"add:to:"`, `"sum:"`, `"now"`,
        /// `"castObject:toType:"` for `CAST`), with its arguments.
        case function(String, arguments: [CDExpression])
        /// `FUNCTION(target, 'selector', arguments…)`: a method called on a value.
        case customFunction(target: CDExpression, selector: String, arguments: [CDExpression])
        /// A collection of expressions (`{1, 2, 3}`).
        case aggregate([CDExpression])
        /// `SUBQUERY(collection, $variable, predicate)`: the elements matching the predicate.
        case subquery(collection: CDExpression, variable: String, predicate: CDPredicate)
        /// `TERNARY(predicate, a, b)`.
        case conditional(CDPredicate, trueExpression: CDExpression, falseExpression: CDExpression)
        /// `a UNION b`.
        case unionSet(CDExpression, CDExpression)
        /// `a INTERSECT b`.
        case intersectSet(CDExpression, CDExpression)
        /// `a MINUS b`.
        case minusSet(CDExpression, CDExpression)
        /// `ANYKEY` (Spotlight only in Core Data).
        case anyKey
    }

    /// The position in `collection[…]`.
    public enum Index: Sendable, Hashable {
        case first
        case last
        case size
        case expression(CDExpression)
    }

    /// The expression's kind without payload, as `NSExpression.ExpressionType` names it.
    public enum ExpressionType: Sendable, Hashable, CaseIterable {
        case constantValue, evaluatedObject, variable, keyPath, member, index, function
        case customFunction, aggregate, subquery, conditional, unionSet, intersectSet, minusSet, anyKey
    }

    /// The expression's kind and parts.
    public let kind: Kind

    /// Wraps a kind.
    public init(_ kind: Kind) {
        self.kind = kind
    }

    // MARK: - Core Data initializers

    /// A constant expression. For a value given as `Any`, convert it first:
    /// `CDExpression(forConstantValue: try CDValue(argument: value))`.
    public init(forConstantValue value: CDValue) { self.init(.constantValue(value)) }

    /// A key path read from the evaluated object.
    public init(forKeyPath keyPath: String) { self.init(.keyPath(keyPath)) }

    /// A substitution variable (`$name`).
    public init(forVariable name: String) { self.init(.variable(name)) }

    /// The evaluated object (`SELF`).
    public static func expressionForEvaluatedObject() -> CDExpression { CDExpression(.evaluatedObject) }

    /// A built-in function (`"add:to:"`, `"sum:"`, …).
    public init(forFunction name: String, arguments: [CDExpression]) {
        self.init(.function(name, arguments: arguments))
    }

    /// An aggregate of expressions.
    public init(forAggregate expressions: [CDExpression]) { self.init(.aggregate(expressions)) }

    /// `SUBQUERY(collection, $variable, predicate)`.
    public init(forSubquery collection: CDExpression, usingIteratorVariable variable: String, predicate: CDPredicate) {
        self.init(.subquery(collection: collection, variable: variable, predicate: predicate))
    }

    /// `TERNARY(predicate, trueExpression, falseExpression)`.
    public init(forConditional predicate: CDPredicate, trueExpression: CDExpression, falseExpression: CDExpression) {
        self.init(.conditional(predicate, trueExpression: trueExpression, falseExpression: falseExpression))
    }

    /// `left UNION right`.
    public init(forUnionSet left: CDExpression, with right: CDExpression) { self.init(.unionSet(left, right)) }
    /// `left INTERSECT right`.
    public init(forIntersectSet left: CDExpression, with right: CDExpression) { self.init(.intersectSet(left, right)) }
    /// `left MINUS right`.
    public init(forMinusSet left: CDExpression, with right: CDExpression) { self.init(.minusSet(left, right)) }

    // MARK: - Short forms

    /// A constant expression.
    public static func constant(_ value: CDValue) -> CDExpression { CDExpression(.constantValue(value)) }
    /// A key path read from the evaluated object.
    public static func keyPath(_ path: String) -> CDExpression { CDExpression(.keyPath(path)) }
    /// A substitution variable.
    public static func variable(_ name: String) -> CDExpression { CDExpression(.variable(name)) }
    /// The evaluated object (`SELF`).
    public static var evaluatedObject: CDExpression { CDExpression(.evaluatedObject) }
}
