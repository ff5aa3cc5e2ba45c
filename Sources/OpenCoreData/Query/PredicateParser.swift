import Foundation

/// A recursive-descent parser for predicate format strings: one function per precedence
/// level, lowest first.
///
/// Predicate levels (this file): `OR` < `AND` < `NOT` < parenthesized / constant / comparison.
/// Expression levels (`PredicateParserExpressions.swift`): expression < additive <
/// multiplicative < unary < power < postfix (`.key`, `[index]`) < primary.
///
/// The parser accepts the core subset today (comparisons `== != < <= > >=`, key paths,
/// literals, `%@`/`%K`, `SELF`, `AND`/`OR`/`NOT`, `TRUEPREDICATE`/`FALSEPREDICATE`, `CAST`)
/// and reports the rest of the language as "not supported yet" at the level where it belongs.
/// Every recursion passes through `enterNesting()`, which bounds the depth.
struct PredicateParser {
    let format: String
    let tokens: [PredicateToken]
    var index = 0
    var arguments: [Any?]
    var nextArgument = 0
    var depth = 0
    var termCount = 0

    /// Parses `format` with its `%@`/`%K` arguments into a predicate tree.
    static func parse(_ format: String, arguments: [Any?]) throws -> CDPredicate {
        let length = format.utf8.count
        guard length <= PredicateLimits.maximumFormatLength else {
            throw PredicateSyntaxError.make(
                "the format is \(length) bytes long; the limit is \(PredicateLimits.maximumFormatLength)",
                offset: nil, format: format
            )
        }
        var parser = PredicateParser(format: format, tokens: try PredicateLexer.tokenize(format), arguments: arguments)
        let predicate = try parser.parsePredicate()
        guard parser.current.isEnd else { throw parser.unexpected(parser.current) }
        return predicate
    }

    // MARK: - Predicate levels

    /// The lowest level: a whole predicate.
    mutating func parsePredicate() throws -> CDPredicate {
        try parseOr()
    }

    /// `a OR b OR c`, as one compound of all the operands.
    mutating func parseOr() throws -> CDPredicate {
        var operands = [try parseAnd()]
        while current.is(.or) || current.is(.orOr) {
            advance()
            operands.append(try parseAnd())
        }
        return operands.count == 1 ? operands[0] : CDCompoundPredicate(type: .or, subpredicates: operands)
    }

    /// `a AND b AND c`, as one compound of all the operands.
    mutating func parseAnd() throws -> CDPredicate {
        var operands = [try parseNot()]
        while current.is(.and) || current.is(.andAnd) {
            advance()
            operands.append(try parseNot())
        }
        return operands.count == 1 ? operands[0] : CDCompoundPredicate(type: .and, subpredicates: operands)
    }

    /// `NOT p` / `!p`.
    mutating func parseNot() throws -> CDPredicate {
        guard current.is(.not) || current.is(.bang) else { return try parsePrimaryPredicate() }
        let token = advance()
        try enterNesting(at: token)
        defer { leaveNesting() }
        return CDCompoundPredicate(notPredicateWithSubpredicate: try parseNot())
    }

    /// `( predicate )`, `TRUEPREDICATE`, `FALSEPREDICATE`, or a comparison.
    mutating func parsePrimaryPredicate() throws -> CDPredicate {
        let token = current
        switch token.kind {
        case .symbol(.leftParen):
            advance()
            try enterNesting(at: token)
            defer { leaveNesting() }
            let inner = try parsePredicate()
            try expect(.rightParen)
            return inner
        case .keyword(.truePredicate), .keyword(.falsePredicate):
            advance()
            try countTerm(at: token)
            return CDPredicate(value: token.is(.truePredicate))
        default:
            return try parseComparison()
        }
    }

    /// `[modifier] expression operator[options] expression`.
    mutating func parseComparison() throws -> CDPredicate {
        let start = current
        try countTerm(at: start)
        switch start.kind {
        case .keyword(.any), .keyword(.some), .keyword(.all), .keyword(.none):
            throw notSupportedYet(start)
        default:
            break
        }
        let left = try parseExpression()
        let operatorToken = current
        let type: CDComparisonPredicate.Operator
        switch operatorToken.kind {
        case .symbol(.equal): type = .equalTo
        case .symbol(.notEqual): type = .notEqualTo
        case .symbol(.less): type = .lessThan
        case .symbol(.lessOrEqual): type = .lessThanOrEqualTo
        case .symbol(.greater): type = .greaterThan
        case .symbol(.greaterOrEqual): type = .greaterThanOrEqualTo
        case .keyword(.like), .keyword(.matches), .keyword(.beginsWith), .keyword(.endsWith),
             .keyword(.contains), .keyword(.in), .keyword(.between):
            throw notSupportedYet(operatorToken)
        default:
            throw error("expected a comparison operator, found \(PredicateSyntaxError.describe(operatorToken))", at: operatorToken)
        }
        advance()
        if current.is(.leftBracket) { throw notSupportedYet(current, what: "comparison options '[…]'") }
        let right = try parseExpression()
        return CDComparisonPredicate(leftExpression: left, rightExpression: right, type: type)
    }

    // MARK: - Tokens

    var current: PredicateToken { tokens[index] }

    /// Moves past the current token (never past `.end`) and returns it.
    @discardableResult
    mutating func advance() -> PredicateToken {
        let token = tokens[index]
        if !token.isEnd { index += 1 }
        return token
    }

    mutating func expect(_ symbol: PredicateSymbol) throws {
        guard current.is(symbol) else {
            throw error("expected '\(symbol.rawValue)', found \(PredicateSyntaxError.describe(current))", at: current)
        }
        advance()
    }

    // MARK: - Limits

    /// Counts one level of nesting; throws past `PredicateLimits.maximumDepth`.
    mutating func enterNesting(at token: PredicateToken) throws {
        depth += 1
        if depth > PredicateLimits.maximumDepth {
            throw error("nesting deeper than \(PredicateLimits.maximumDepth) levels", at: token)
        }
    }

    mutating func leaveNesting() { depth -= 1 }

    /// Counts one comparison or constant; throws past `PredicateLimits.maximumTermCount`.
    mutating func countTerm(at token: PredicateToken) throws {
        termCount += 1
        if termCount > PredicateLimits.maximumTermCount {
            throw error("more than \(PredicateLimits.maximumTermCount) comparisons", at: token)
        }
    }

    // MARK: - Errors

    func error(_ problem: String, at token: PredicateToken) -> CoreDataError {
        PredicateSyntaxError.make(problem, offset: token.offset, format: format)
    }

    func unexpected(_ token: PredicateToken) -> CoreDataError {
        error("unexpected \(PredicateSyntaxError.describe(token))", at: token)
    }

    func notSupportedYet(_ token: PredicateToken, what: String? = nil) -> CoreDataError {
        error("\(what ?? "'\(token.text)'") is not supported yet", at: token)
    }
}
