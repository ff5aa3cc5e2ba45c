import Foundation

// MARK: - Substitution variables

extension CDPredicate {
    /// A copy of the predicate with every `$NAME` replaced by `variables["NAME"]`:
    /// Core Data's `withSubstitutionVariables(_:)`.
    ///
    /// A value may be a `CDExpression` (used as is) or anything `%@` accepts (used as a
    /// constant; `nil` is `NULL`). A subquery's iteration variable is not replaced inside
    /// the subquery's own predicate, where it names the element being tested.
    ///
    /// For example:
    /// ```swift
    /// let template = try CDPredicate(format: "title BEGINSWITH[c] $PREFIX")
    /// let predicate = try template.withSubstitutionVariables(["PREFIX": "mi"])
    /// ```
    ///
    /// - Throws: `.invalidPredicate` naming a variable `variables` has no value for, or a
    ///   value that cannot be a constant.
    public func withSubstitutionVariables(_ variables: [String: Any?]) throws -> CDPredicate {
        var substitution = VariableSubstitution(variables: variables)
        return try substitution.predicate(self)
    }
}

extension CDExpression {
    /// A copy of the expression with every `$NAME` replaced by `variables["NAME"]`;
    /// see `CDPredicate.withSubstitutionVariables(_:)`.
    public func withSubstitutionVariables(_ variables: [String: Any?]) throws -> CDExpression {
        var substitution = VariableSubstitution(variables: variables)
        return try substitution.expression(self)
    }
}

/// Rebuilds a tree with its variables replaced, keeping track of the subquery iteration
/// variables in scope (which are never replaced). Aggregates that become all constants fold
/// into array constants and members of key paths into longer key paths, as the parser
/// builds them.
private struct VariableSubstitution {
    let variables: [String: Any?]
    /// Iteration variables of the subqueries enclosing the current node.
    var bound: [String] = []

    mutating func predicate(_ predicate: CDPredicate) throws -> CDPredicate {
        switch predicate.kind {
        case .constant:
            return predicate
        case .comparison(let comparison):
            return CDComparisonPredicate(
                leftExpression: try expression(comparison.leftExpression),
                rightExpression: try expression(comparison.rightExpression),
                modifier: comparison.comparisonPredicateModifier,
                type: comparison.predicateOperatorType,
                options: comparison.options
            )
        case .compound(let compound):
            var subpredicates: [CDPredicate] = []
            for subpredicate in compound.subpredicates { subpredicates.append(try self.predicate(subpredicate)) }
            return CDCompoundPredicate(type: compound.compoundPredicateType, subpredicates: subpredicates)
        }
    }

    mutating func expression(_ expression: CDExpression) throws -> CDExpression {
        switch expression.kind {
        case .constantValue, .evaluatedObject, .keyPath, .anyKey:
            return expression
        case .variable(let name):
            return try value(of: name)
        case .member(let base, let path):
            return Self.member(try self.expression(base), path)
        case .index(let base, let position):
            let newPosition: CDExpression.Index
            if case .expression(let inner) = position { newPosition = .expression(try self.expression(inner)) } else { newPosition = position }
            return CDExpression(.index(try self.expression(base), newPosition))
        case .function(let name, let arguments):
            return CDExpression(.function(name, arguments: try list(arguments)))
        case .customFunction(let target, let selector, let arguments):
            return CDExpression(.customFunction(target: try self.expression(target), selector: selector, arguments: try list(arguments)))
        case .aggregate(let elements):
            return PredicateParser.foldAggregate(try list(elements))
        case .subquery(let collection, let variable, let condition):
            let newCollection = try self.expression(collection)
            bound.append(variable)
            defer { bound.removeLast() }
            return CDExpression(.subquery(collection: newCollection, variable: variable, predicate: try predicate(condition)))
        case .conditional(let condition, let whenTrue, let whenFalse):
            return CDExpression(.conditional(
                try predicate(condition), trueExpression: try self.expression(whenTrue), falseExpression: try self.expression(whenFalse)
            ))
        case .unionSet(let left, let right):
            return CDExpression(.unionSet(try self.expression(left), try self.expression(right)))
        case .intersectSet(let left, let right):
            return CDExpression(.intersectSet(try self.expression(left), try self.expression(right)))
        case .minusSet(let left, let right):
            return CDExpression(.minusSet(try self.expression(left), try self.expression(right)))
        }
    }

    /// `base.path` in the shape the parser gives it, so that the result prints to a format
    /// that parses back to it: a key path extended, or a member of another expression.
    private static func member(_ base: CDExpression, _ path: String) -> CDExpression {
        switch base.kind {
        case .keyPath(let basePath): return .keyPath(basePath + "." + path)
        case .evaluatedObject: return .keyPath(path)
        case .member(let inner, let basePath): return CDExpression(.member(inner, keyPath: basePath + "." + path))
        default: return CDExpression(.member(base, keyPath: path))
        }
    }

    private mutating func list(_ expressions: [CDExpression]) throws -> [CDExpression] {
        var result: [CDExpression] = []
        for element in expressions { result.append(try expression(element)) }
        return result
    }

    /// The replacement for `$name`: itself when a subquery binds it, else the given value.
    private func value(of name: String) throws -> CDExpression {
        if bound.contains(name) { return .variable(name) }
        guard let entry = variables[name] else {
            let given = variables.keys.sorted().map { "$" + $0 }.joined(separator: ", ")
            throw CoreDataError(
                .invalidPredicate,
                "No value for the substitution variable $\(name) (given: \(given.isEmpty ? "none" : given))",
                key: name
            )
        }
        let value = CDValue.flattenOptional(entry)
        if let expression = value as? CDExpression { return expression }
        do {
            return .constant(try CDValue(argument: value))
        } catch let failure as CoreDataError {
            throw CoreDataError(.invalidPredicate, "The value for $\(name): \(failure.message)", key: name)
        }
    }
}
