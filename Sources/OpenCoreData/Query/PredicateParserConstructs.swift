import Foundation

// MARK: - Constructs with parenthesized arguments (on the recursion path: keep frames small)

extension PredicateParser {
    /// `CAST(value, 'Type')`: folded to a constant when both are constants it can convert.
    mutating func parseCast() throws -> CDExpression {
        try openArguments()
        defer { leaveNesting() }
        let value = try parseExpression()
        try expect(.comma)
        let typeIndex = index
        let type = try parseExpression()
        try expect(.rightParen)
        return try foldCast(value, to: type, typeIndex: typeIndex)
    }

    /// `SUBQUERY(collection, $variable, predicate)`.
    mutating func parseSubquery() throws -> CDExpression {
        try openArguments()
        defer { leaveNesting() }
        let collection = try parseExpression()
        try expect(.comma)
        let variable = try parseIteratorVariable()
        try expect(.comma)
        let predicate = try parsePredicate()
        try expect(.rightParen)
        return CDExpression(.subquery(collection: collection, variable: variable, predicate: predicate))
    }

    /// `FUNCTION(target, 'selector', arguments…)`: a custom function called on `target`.
    mutating func parseCustomFunction() throws -> CDExpression {
        try openArguments()
        defer { leaveNesting() }
        let target = try parseExpression()
        try expect(.comma)
        let selectorIndex = index
        let selector = try parseExpression()
        var arguments: [CDExpression] = []
        while skip(.comma) { arguments.append(try parseExpression()) }
        try expect(.rightParen)
        return CDExpression(.customFunction(
            target: target, selector: try selectorName(selector, at: selectorIndex), arguments: arguments
        ))
    }

    /// `TERNARY(predicate, whenTrue, whenFalse)`.
    mutating func parseTernary() throws -> CDExpression {
        try openArguments()
        defer { leaveNesting() }
        let predicate = try parsePredicate()
        try expect(.comma)
        let whenTrue = try parseExpression()
        try expect(.comma)
        let whenFalse = try parseExpression()
        try expect(.rightParen)
        return CDExpression(.conditional(predicate, trueExpression: whenTrue, falseExpression: whenFalse))
    }

    /// `name(arguments…)` or `selector:(arguments…)`: a built-in function.
    mutating func parseFunctionCall() throws -> CDExpression {
        let nameIndex = index
        let name = try functionName(at: nameIndex)
        try openArguments()
        defer { leaveNesting() }
        var arguments: [CDExpression] = []
        if !skip(.rightParen) {
            repeat {
                arguments.append(try parseExpression())
            } while skip(.comma)
            try expect(.rightParen)
        }
        try checkArity(name, arguments.count, at: nameIndex)
        if name == PredicateCast.functionName {
            return try foldCast(arguments[0], to: arguments[1], typeIndex: nameIndex)
        }
        return CDExpression(.function(name, arguments: arguments))
    }
}

// MARK: - Construct steps (not recursive)

extension PredicateParser {
    /// Moves past a construct's name and its `(`, counting one nesting level
    /// (which the caller leaves).
    mutating func openArguments() throws {
        try enterNesting(at: index)
        advance()
        do {
            try expect(.leftParen)
        } catch {
            leaveNesting()
            throw error
        }
    }

    /// The `$name` a subquery iterates with.
    mutating func parseIteratorVariable() throws -> String {
        guard case .variable(let name) = current.kind else {
            throw error("expected the subquery's iteration variable ('$x'), found \(describeCurrent)", at: index)
        }
        advance()
        return name
    }

    /// The selector of `FUNCTION(…)`: a string constant.
    func selectorName(_ selector: CDExpression, at selectorIndex: Int) throws -> String {
        guard case .constantValue(.string(let name)) = selector.kind, !name.isEmpty else {
            throw error("the selector of FUNCTION must be a non-empty string, like 'name:'", at: selectorIndex)
        }
        return name
    }

    /// The full name of the built-in function written at `nameIndex`.
    func functionName(at nameIndex: Int) throws -> String {
        let written = tokens[nameIndex].text
        guard let name = PredicateFunctions.resolve(written) else {
            throw error("unknown function '\(written)' (known: \(PredicateFunctions.names.joined(separator: ", ")))", at: nameIndex)
        }
        return name
    }

    func checkArity(_ name: String, _ count: Int, at nameIndex: Int) throws {
        let expected = PredicateFunctions.arity(of: name)
        guard count == expected else {
            throw error("the function \(name) takes \(expected) argument\(expected == 1 ? "" : "s"), not \(count)", at: nameIndex)
        }
    }

    /// A `CAST` of constants folded to a typed constant, or else the `castObject:toType:` function.
    func foldCast(_ value: CDExpression, to type: CDExpression, typeIndex: Int) throws -> CDExpression {
        if case .constantValue(let constant) = value.kind, case .constantValue(.string(let typeName)) = type.kind {
            if let folded = PredicateCast.fold(constant, to: typeName) { return .constant(folded) }
            if PredicateCast.isFoldable(typeName) {
                throw error("cannot convert \(constant) to \(typeName)", at: typeIndex)
            }
        }
        return CDExpression(.function(PredicateCast.functionName, arguments: [value, type]))
    }
}
