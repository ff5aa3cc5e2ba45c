import Foundation

// MARK: - Tokens

extension PredicateParser {
    var current: PredicateToken { tokens[index] }

    /// Moves past the current token (never past `.end`).
    mutating func advance() {
        if !tokens[index].isEnd { index += 1 }
    }

    /// The token after the one at `tokenIndex` (`.end` at the end).
    func token(after tokenIndex: Int) -> PredicateToken { tokens[min(tokenIndex + 1, tokens.count - 1)] }

    func check(_ symbol: PredicateSymbol) -> Bool { tokens[index].is(symbol) }

    func check(_ keyword: PredicateKeyword) -> Bool { tokens[index].is(keyword) }

    func check(_ keyword: PredicateKeyword, or symbol: PredicateSymbol) -> Bool {
        tokens[index].is(keyword) || tokens[index].is(symbol)
    }

    /// Moves past the current token when it is `symbol`.
    mutating func skip(_ symbol: PredicateSymbol) -> Bool {
        guard check(symbol) else { return false }
        advance()
        return true
    }

    /// Moves past the current token when it is `keyword` or `symbol`.
    mutating func skip(_ keyword: PredicateKeyword, or symbol: PredicateSymbol) -> Bool {
        guard check(keyword, or: symbol) else { return false }
        advance()
        return true
    }

    mutating func expect(_ symbol: PredicateSymbol) throws {
        guard skip(symbol) else {
            throw error("expected '\(symbol.rawValue)', found \(describeCurrent)", at: index)
        }
    }

    func expectEnd() throws {
        guard current.isEnd else { throw error("unexpected \(describeCurrent)", at: index) }
    }

    /// The current token as error messages quote it.
    var describeCurrent: String { PredicateSyntaxError.describe(current) }

    // MARK: - Predicate steps (not recursive)

    /// `TRUEPREDICATE` or `FALSEPREDICATE`, or `nil` when the current token is neither.
    mutating func parseConstantPredicate() throws -> CDPredicate? {
        let value: Bool
        if check(.truePredicate) { value = true } else if check(.falsePredicate) { value = false } else { return nil }
        try countTerm()
        advance()
        return CDPredicate(value: value)
    }

    // MARK: - Leaf expressions (not recursive)

    /// A literal, `%@`, `%K`, `$variable`, `SELF`, `ANYKEY`, a key, or `@operator`.
    mutating func parseLeafExpression() throws -> CDExpression {
        let start = index
        switch current.kind {
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
            return try substitute(specifier, at: start)
        case .keyword(let keyword):
            return try parseKeywordLiteral(keyword)
        case .variable(let name):
            advance()
            return .variable(name)
        default:
            throw error("expected an expression, found \(describeCurrent)", at: start)
        }
    }

    /// `nil`, `TRUE`, `SELF`, `ANYKEY`; other reserved words are errors.
    private mutating func parseKeywordLiteral(_ keyword: PredicateKeyword) throws -> CDExpression {
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
        case .anyKey:
            advance()
            return CDExpression(.anyKey)
        case .fetch:
            throw error("FETCH expressions are not available: a predicate cannot run a fetch request", at: index)
        default:
            throw error(
                "unexpected reserved word \(describeCurrent) (write '#\(current.text)' for a key of that name)",
                at: index
            )
        }
    }

    // MARK: - Errors

    func error(_ problem: String, at tokenIndex: Int) -> CoreDataError {
        PredicateSyntaxError.make(problem, offset: tokens[tokenIndex].offset, format: format)
    }
}
