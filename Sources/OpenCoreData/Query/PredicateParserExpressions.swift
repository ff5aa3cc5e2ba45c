import Foundation

// MARK: - Expression levels

extension PredicateParser {
    /// The lowest expression level. (Later: `TERNARY`, `UNION`/`INTERSECT`/`MINUS`, `:=`.)
    mutating func parseExpression() throws -> CDExpression {
        try parseAdditive()
    }

    /// `a + b`, `a - b`. (Arithmetic is not supported yet.)
    mutating func parseAdditive() throws -> CDExpression {
        let left = try parseMultiplicative()
        if current.is(.plus) || current.is(.minus) { throw notSupportedYet(current, what: "arithmetic") }
        return left
    }

    /// `a * b`, `a / b`. (Arithmetic is not supported yet.)
    mutating func parseMultiplicative() throws -> CDExpression {
        let left = try parseUnary()
        if current.is(.star) || current.is(.slash) { throw notSupportedYet(current, what: "arithmetic") }
        return left
    }

    /// `-literal` (a negative number). Negating other expressions is not supported yet.
    mutating func parseUnary() throws -> CDExpression {
        guard current.is(.minus) else { return try parsePower() }
        let minus = advance()
        let number = current
        switch number.kind {
        case .integer(let magnitude):
            advance()
            if magnitude <= UInt64(Int64.max) { return .constant(.int64(-Int64(magnitude))) }
            if magnitude == UInt64(Int64.max) + 1 { return .constant(.int64(.min)) }
            return .constant(.double(-Double(magnitude)))
        case .double(let value):
            advance()
            return .constant(.double(-value))
        default:
            throw notSupportedYet(minus, what: "negating a non-literal")
        }
    }

    /// `a ** b`. (Not supported yet.)
    mutating func parsePower() throws -> CDExpression {
        let base = try parsePostfix()
        if current.is(.power) { throw notSupportedYet(current, what: "arithmetic") }
        return base
    }

    /// A primary followed by `.key`, `.@operator` or `[index]` accessors.
    mutating func parsePostfix() throws -> CDExpression {
        var expression = try parsePrimaryExpression()
        while true {
            if current.is(.dot) {
                advance()
                expression = appending(try parseKeyComponent(), to: expression)
            } else if current.is(.leftBracket) {
                throw notSupportedYet(current, what: "index access '[…]'")
            } else {
                return expression
            }
        }
    }

    /// `expression.key`: extends a key path, turns `SELF.key` into `key`, else reads from a value.
    private func appending(_ key: String, to base: CDExpression) -> CDExpression {
        switch base.kind {
        case .keyPath(let path): return .keyPath(path + "." + key)
        case .evaluatedObject: return .keyPath(key)
        case .member(let inner, let path): return CDExpression(.member(inner, keyPath: path + "." + key))
        default: return CDExpression(.member(base, keyPath: key))
        }
    }

    /// One key after a `.`: a name, a `#`-escaped name, a reserved word, or `@operator`.
    private mutating func parseKeyComponent() throws -> String {
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
                throw error("expected a collection operator after '@', found \(PredicateSyntaxError.describe(current))", at: current)
            }
            advance()
            return "@" + name
        default:
            throw error("expected a key after '.', found \(PredicateSyntaxError.describe(token))", at: token)
        }
    }

    // MARK: - Primary expressions

    /// A literal, `%@`, `%K`, `SELF`, a key, `@operator`, or `CAST(…)`.
    mutating func parsePrimaryExpression() throws -> CDExpression {
        let token = current
        switch token.kind {
        case .identifier(let name), .escapedIdentifier(let name):
            advance()
            return .keyPath(name)
        case .symbol(.at):
            return .keyPath(try parseKeyComponent())
        case .integer(let magnitude):
            advance()
            if let exact = Int64(exactly: magnitude) { return .constant(.int64(exact)) }
            return .constant(.double(Double(magnitude)))
        case .double(let value):
            advance()
            return .constant(.double(value))
        case .string(let text):
            advance()
            return .constant(.string(text))
        case .formatSpecifier(let specifier):
            advance()
            return try substitute(specifier, at: token)
        case .keyword(let keyword):
            return try parseKeywordExpression(keyword, token: token)
        case .variable:
            throw notSupportedYet(token, what: "variables ('\(token.text)')")
        case .symbol(.leftBrace):
            throw notSupportedYet(token, what: "aggregates '{…}'")
        case .symbol(.leftParen):
            throw notSupportedYet(token, what: "parenthesized expressions")
        default:
            throw error("expected an expression, found \(PredicateSyntaxError.describe(token))", at: token)
        }
    }

    /// An expression starting with a reserved word: `nil`, `TRUE`, `SELF`, `CAST(…)`…
    private mutating func parseKeywordExpression(_ keyword: PredicateKeyword, token: PredicateToken) throws -> CDExpression {
        switch keyword {
        case .nil, .null:
            advance()
            return .constant(.null)
        case .true, .yes:
            advance()
            return .constant(.bool(true))
        case .false, .no:
            advance()
            return .constant(.bool(false))
        case .self:
            advance()
            return .evaluatedObject
        case .cast:
            return try parseCast()
        case .subquery, .function, .ternary, .fetch, .anyKey:
            throw notSupportedYet(token)
        default:
            throw error(
                "unexpected reserved word \(PredicateSyntaxError.describe(token)) (write '#\(token.text)' for a key of that name)",
                at: token
            )
        }
    }

    /// `CAST(value, 'Type')`: folded to a constant when both are constants it can convert.
    private mutating func parseCast() throws -> CDExpression {
        let castToken = advance()
        try enterNesting(at: castToken)
        defer { leaveNesting() }
        try expect(.leftParen)
        let value = try parseExpression()
        try expect(.comma)
        let typeToken = current
        let type = try parseExpression()
        try expect(.rightParen)
        if case .constantValue(let constant) = value.kind, case .constantValue(.string(let typeName)) = type.kind {
            if let folded = PredicateCast.fold(constant, to: typeName) { return .constant(folded) }
            if PredicateCast.isFoldable(typeName) {
                throw error("cannot convert \(constant) to \(typeName)", at: typeToken)
            }
        }
        return CDExpression(.function(PredicateCast.functionName, arguments: [value, type]))
    }
}
