import Foundation

// MARK: - Expression levels (on the recursion path: keep frames small)

extension PredicateParser {
    /// The lowest expression level. (Later: `TERNARY`, `UNION`/`INTERSECT`/`MINUS`, `:=`.)
    mutating func parseExpression() throws -> CDExpression {
        try parseAdditive()
    }

    /// `a + b`, `a - b`. (Arithmetic is not supported yet.)
    mutating func parseAdditive() throws -> CDExpression {
        let left = try parseMultiplicative()
        try reject(.plus, .minus, as: "arithmetic")
        return left
    }

    /// `a * b`, `a / b`. (Arithmetic is not supported yet.)
    mutating func parseMultiplicative() throws -> CDExpression {
        let left = try parseUnary()
        try reject(.star, .slash, as: "arithmetic")
        return left
    }

    /// `-literal` (a negative number). Negating other expressions is not supported yet.
    mutating func parseUnary() throws -> CDExpression {
        if check(.minus) { return try parseNegativeLiteral() }
        return try parsePower()
    }

    /// `a ** b`. (Not supported yet.)
    mutating func parsePower() throws -> CDExpression {
        let base = try parsePostfix()
        try reject(.power, .power, as: "arithmetic")
        return base
    }

    /// A primary followed by `.key`, `.@operator` or `[index]` accessors.
    mutating func parsePostfix() throws -> CDExpression {
        var expression = try parsePrimaryExpression()
        while let extended = try parsePostfixStep(after: expression) {
            expression = extended
        }
        return expression
    }

    /// `CAST(…)` (which nests), or a leaf: a literal, `%@`, `%K`, `SELF`, a key.
    mutating func parsePrimaryExpression() throws -> CDExpression {
        if check(.cast) { return try parseCast() }
        return try parseLeafExpression()
    }

    /// `CAST(value, 'Type')`: folded to a constant when both are constants it can convert.
    mutating func parseCast() throws -> CDExpression {
        let start = index
        advance()
        try enterNesting(at: start)
        defer { leaveNesting() }
        try expect(.leftParen)
        let value = try parseExpression()
        try expect(.comma)
        let typeIndex = index
        let type = try parseExpression()
        try expect(.rightParen)
        return try foldCast(value, to: type, typeIndex: typeIndex)
    }
}

// MARK: - Expression steps (not recursive)

extension PredicateParser {
    /// Throws "not supported yet" when the current token is `first` or `second`.
    mutating func reject(_ first: PredicateSymbol, _ second: PredicateSymbol, as feature: String) throws {
        if check(first) || check(second) { throw notSupportedYet(at: index, what: feature) }
    }

    /// `-` followed by a number literal, as a negative constant.
    mutating func parseNegativeLiteral() throws -> CDExpression {
        let minus = index
        advance()
        switch current.kind {
        case .integer(let magnitude):
            advance()
            if magnitude <= UInt64(Int64.max) { return .constant(.int64(-Int64(magnitude))) }
            if magnitude == UInt64(Int64.max) + 1 { return .constant(.int64(.min)) }
            return .constant(.double(-Double(magnitude)))
        case .double(let value):
            advance()
            return .constant(.double(-value))
        default:
            throw notSupportedYet(at: minus, what: "negating a non-literal")
        }
    }

    /// One `.key` or `[…]` after `base`, or `nil` when none follows.
    mutating func parsePostfixStep(after base: CDExpression) throws -> CDExpression? {
        if check(.leftBracket) { throw notSupportedYet(at: index, what: "index access '[…]'") }
        guard skip(.dot) else { return nil }
        let key = try parseKeyComponent()
        switch base.kind {
        case .keyPath(let path): return .keyPath(path + "." + key)
        case .evaluatedObject: return .keyPath(key)
        case .member(let inner, let path): return CDExpression(.member(inner, keyPath: path + "." + key))
        default: return CDExpression(.member(base, keyPath: key))
        }
    }

    /// One key after a `.`: a name, a `#`-escaped name, a reserved word, or `@operator`.
    mutating func parseKeyComponent() throws -> String {
        let token = current
        switch token.kind {
        case .identifier(let name), .escapedIdentifier(let name):
            advance()
            return name
        case .keyword:
            advance()
            return token.text
        case .symbol(.at):
            advance()
            guard case .identifier(let name) = current.kind else {
                throw error("expected a collection operator after '@', found \(describeCurrent)", at: index)
            }
            advance()
            return "@" + name
        default:
            throw error("expected a key after '.', found \(describeCurrent)", at: index)
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
