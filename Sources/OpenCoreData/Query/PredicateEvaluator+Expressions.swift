import Foundation

/// Expression values: constants, `SELF`, variables, key paths, index access, aggregates,
/// `SUBQUERY`, `TERNARY`, set expressions, functions. The rules are listed on
/// `PredicateEvaluator`.
extension PredicateEvaluator {
    /// The value of `expression` in `scope`: a `CDValue` for a scalar constant, an
    /// `EvaluatedCollection` for collections, else what the object holds.
    static func value(of expression: CDExpression, in scope: EvaluationScope) throws -> Any? {
        // Each case calls out, so that this frame — on the path of every recursion — stays
        // small, and deep trees fit `EvaluationScope.stackBudget`.
        try scope.checkStack()
        switch expression.kind {
        case .constantValue(let constant): return constantValue(constant)
        case .evaluatedObject: return scope.object
        case .variable(let name): return try scope.value(ofVariable: name)
        case .keyPath(let path): return try KeyPathReader.value(of: scope.object, keyPath: path)
        case .member(let base, let path): return try member(base, path, in: scope)
        case .index(let base, let index): return try element(of: base, at: index, in: scope)
        case .function(let name, let arguments): return try FunctionEvaluation.call(name, try values(of: arguments, in: scope))
        case .customFunction(let target, let selector, let arguments): return try custom(target, selector, arguments, in: scope)
        case .aggregate(let items): return EvaluatedCollection(try values(of: items, in: scope), isOrdered: true)
        case .subquery(let collection, let variable, let predicate): return try subquery(collection, variable, predicate, in: scope)
        case .conditional(let predicate, let whenTrue, let whenFalse): return try conditional(predicate, whenTrue, whenFalse, in: scope)
        case .unionSet, .intersectSet, .minusSet: return try setExpression(expression, in: scope)
        case .anyKey: throw CoreDataError(.invalidPredicate, "ANYKEY is for Spotlight queries; it cannot be evaluated")
        }
    }

    private static func values(of expressions: [CDExpression], in scope: EvaluationScope) throws -> [Any?] {
        var values: [Any?] = []
        values.reserveCapacity(expressions.count)
        for expression in expressions { values.append(try value(of: expression, in: scope)) }
        return values
    }

    private static func member(_ base: CDExpression, _ path: String, in scope: EvaluationScope) throws -> Any? {
        try KeyPathReader.value(of: try value(of: base, in: scope), keyPath: path)
    }

    private static func custom(_ target: CDExpression, _ selector: String, _ arguments: [CDExpression], in scope: EvaluationScope) throws -> Any? {
        let targetValue = try value(of: target, in: scope)
        return try CustomFunctionRegistry.call(selector, target: targetValue, arguments: try values(of: arguments, in: scope))
    }

    private static func conditional(_ predicate: CDPredicate, _ whenTrue: CDExpression, _ whenFalse: CDExpression, in scope: EvaluationScope) throws -> Any? {
        try value(of: try evaluate(predicate, in: scope) ? whenTrue : whenFalse, in: scope)
    }

    /// A constant as the evaluator works with it: `nil` for `.null`, a collection for an array.
    private static func constantValue(_ constant: CDValue) -> Any? {
        switch constant {
        case .null: return nil
        case .array(let items): return EvaluatedCollection(items.map(constantValue), isOrdered: true)
        default: return constant
        }
    }

    // MARK: - Index access

    /// `base[index]`.
    private static func element(of baseExpression: CDExpression, at index: CDExpression.Index, in scope: EvaluationScope) throws -> Any? {
        guard let base = CDValue.flattenOptional(try value(of: baseExpression, in: scope)) else { return nil }
        if case .size = index {
            if let dictionary = base as? [String: Any] { return Int64(dictionary.count) }
            return Int64(try collection(base, for: "[SIZE]").elements.count)
        }
        if case .expression(let keyExpression) = index {
            let key = try value(of: keyExpression, in: scope)
            if let name = string(key) {
                // As in the SQLite store: a collection is indexed by position only (a key
                // read from every element would be `base.name`, not `base['name']`).
                guard EvaluatedCollection(base) == nil else {
                    throw CoreDataError(.invalidPredicate, "['\(name)']: a collection (a to-many relationship, an array or a set) is indexed by a whole number, not by a key")
                }
                return try KeyPathReader.value(of: base, key: name)
            }
            guard let number = NumericValue(any: key) else {
                throw CoreDataError(.invalidPredicate, "An index must be a number or a key string, not a value of type \(type(of: key ?? "nil"))")
            }
            guard let position = number.exactInteger else {
                throw CoreDataError(.invalidPredicate, "The index \(number.anyValue) is not a whole number")
            }
            let elements = try orderedElements(base, for: "[\(position)]")
            guard position >= 0, position < elements.count else { return nil }
            return elements[Int(position)]
        }
        let elements = try orderedElements(base, for: index == .first ? "[FIRST]" : "[LAST]")
        return index == .first ? elements.first ?? nil : elements.last ?? nil
    }

    private static func orderedElements(_ base: Any, for access: String) throws -> [Any?] {
        let collection = try collection(base, for: access)
        guard collection.isOrdered else {
            throw CoreDataError(.invalidPredicate, "\(access) needs an ordered collection (an array or an ordered relationship), not an unordered one")
        }
        return collection.elements
    }

    private static func collection(_ base: Any, for use: String) throws -> EvaluatedCollection {
        guard let collection = EvaluatedCollection(base) else {
            throw CoreDataError(.invalidPredicate, "\(use) applies to collections, not to a value of type \(type(of: base))")
        }
        return collection
    }

    // MARK: - SUBQUERY and set expressions

    private static func subquery(_ source: CDExpression, _ variable: String, _ predicate: CDPredicate, in scope: EvaluationScope) throws -> EvaluatedCollection {
        guard let base = CDValue.flattenOptional(try value(of: source, in: scope)) else { return EvaluatedCollection([], isOrdered: true) }
        let collection = try collection(base, for: "SUBQUERY")
        var matching: [Any?] = []
        for element in collection.elements where try evaluate(predicate, in: scope.binding(variable, to: element)) {
            matching.append(element)
        }
        return EvaluatedCollection(matching, isOrdered: collection.isOrdered)
    }

    /// `UNION`, `INTERSECT` or `MINUS`: an unordered collection without repeats.
    private static func setExpression(_ expression: CDExpression, in scope: EvaluationScope) throws -> EvaluatedCollection {
        func operand(_ side: CDExpression) throws -> EvaluatedCollection {
            guard let value = CDValue.flattenOptional(try value(of: side, in: scope)) else { return EvaluatedCollection([], isOrdered: false) }
            return try collection(value, for: "UNION, INTERSECT and MINUS")
        }
        let elements: [Any?]
        switch expression.kind {
        case .unionSet(let left, let right):
            elements = try operand(left).elements + operand(right).elements
        case .intersectSet(let left, let right):
            let (kept, other) = (try operand(left), try operand(right))
            elements = kept.elements.filter { has(other, $0) }
        case .minusSet(let left, let right):
            let (kept, other) = (try operand(left), try operand(right))
            elements = kept.elements.filter { !has(other, $0) }
        default:
            return EvaluatedCollection([], isOrdered: false)
        }
        return CollectionOperators.distinct(EvaluatedCollection(elements, isOrdered: false))
    }

    private static func has(_ collection: EvaluatedCollection, _ element: Any?) -> Bool {
        collection.elements.contains { ValueComparison.isEqual($0, element) }
    }
}
