import Foundation

/// Read-only views of an expression's parts, under Core Data's `NSExpression` names.
/// Each is `nil` (or empty) when the expression is not of the matching kind.
extension CDExpression {
    // MARK: - Type

    /// The kind of expression, without its parts.
    public var expressionType: ExpressionType {
        switch kind {
        case .constantValue: return .constantValue
        case .evaluatedObject: return .evaluatedObject
        case .variable: return .variable
        case .keyPath: return .keyPath
        case .member: return .member
        case .index: return .index
        case .function: return .function
        case .customFunction: return .customFunction
        case .aggregate: return .aggregate
        case .subquery: return .subquery
        case .conditional: return .conditional
        case .unionSet: return .unionSet
        case .intersectSet: return .intersectSet
        case .minusSet: return .minusSet
        case .anyKey: return .anyKey
        }
    }

    // MARK: - Parts

    /// The constant of a `.constantValue` expression.
    public var constantValue: CDValue? {
        if case .constantValue(let value) = kind { return value }
        return nil
    }

    /// The key path of a `.keyPath` or `.member` expression.
    public var keyPath: String? {
        switch kind {
        case .keyPath(let path), .member(_, let path): return path
        default: return nil
        }
    }

    /// The name of a `.variable` expression (without `$`), or the iterator variable of a subquery.
    public var variable: String? {
        switch kind {
        case .variable(let name), .subquery(_, let name, _): return name
        default: return nil
        }
    }

    /// The function name of a `.function` expression, or the selector of a `.customFunction`.
    public var function: String? {
        switch kind {
        case .function(let name, _), .customFunction(_, let name, _): return name
        default: return nil
        }
    }

    /// The arguments of a function, or the elements of an aggregate.
    public var arguments: [CDExpression] {
        switch kind {
        case .function(_, let arguments), .customFunction(_, _, let arguments), .aggregate(let arguments):
            return arguments
        default: return []
        }
    }

    /// The expression a `.member` key path, an `.index` or a `.customFunction` applies to.
    public var operand: CDExpression? {
        switch kind {
        case .member(let base, _), .index(let base, _), .customFunction(let base, _, _): return base
        default: return nil
        }
    }

    /// The collection a subquery iterates over.
    public var collection: CDExpression? {
        if case .subquery(let collection, _, _) = kind { return collection }
        return nil
    }

    /// The predicate of a subquery or a conditional.
    public var predicate: CDPredicate? {
        switch kind {
        case .subquery(_, _, let predicate), .conditional(let predicate, _, _): return predicate
        default: return nil
        }
    }

    /// The left side of a set expression (`UNION`, `INTERSECT`, `MINUS`).
    public var leftExpression: CDExpression? {
        switch kind {
        case .unionSet(let left, _), .intersectSet(let left, _), .minusSet(let left, _): return left
        default: return nil
        }
    }

    /// The right side of a set expression.
    public var rightExpression: CDExpression? {
        switch kind {
        case .unionSet(_, let right), .intersectSet(_, let right), .minusSet(_, let right): return right
        default: return nil
        }
    }

    /// The expression a conditional yields when its predicate is true.
    public var trueExpression: CDExpression? {
        if case .conditional(_, let whenTrue, _) = kind { return whenTrue }
        return nil
    }

    /// The expression a conditional yields when its predicate is false.
    public var falseExpression: CDExpression? {
        if case .conditional(_, _, let whenFalse) = kind { return whenFalse }
        return nil
    }

    /// The expression as the predicate format language writes it.
    public var format: String { PredicateFormatPrinter.format(self) }
}

extension CDExpression: CustomStringConvertible {
    public var description: String { format }
}
