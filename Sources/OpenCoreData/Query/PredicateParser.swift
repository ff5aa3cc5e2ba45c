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
///
/// Stack safety: every recursion passes through `enterNesting(at:)`, which bounds the depth,
/// and the functions on the recursion path keep their frames small — they hold token indexes,
/// never tokens or strings, and leave token inspection and error messages to non-recursive
/// helpers (`PredicateParserSteps.swift`), because unoptimized builds give every temporary
/// its own stack slot.
struct PredicateParser {
    let format: String
    let tokens: [PredicateToken]
    /// The index in `tokens` of the current token.
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
        try parser.expectEnd()
        return predicate
    }

    // MARK: - Predicate levels

    /// The lowest level: a whole predicate.
    mutating func parsePredicate() throws -> CDPredicate {
        try parseOr()
    }

    /// `a OR b OR c`, as one compound of all the operands.
    mutating func parseOr() throws -> CDPredicate {
        let first = try parseAnd()
        guard check(.or, or: .orOr) else { return first }
        var operands = [first]
        while skip(.or, or: .orOr) {
            operands.append(try parseAnd())
        }
        return CDCompoundPredicate(type: .or, subpredicates: operands)
    }

    /// `a AND b AND c`, as one compound of all the operands.
    mutating func parseAnd() throws -> CDPredicate {
        let first = try parseNot()
        guard check(.and, or: .andAnd) else { return first }
        var operands = [first]
        while skip(.and, or: .andAnd) {
            operands.append(try parseNot())
        }
        return CDCompoundPredicate(type: .and, subpredicates: operands)
    }

    /// `NOT p` / `!p`.
    mutating func parseNot() throws -> CDPredicate {
        let start = index
        guard skip(.not, or: .bang) else { return try parsePrimaryPredicate() }
        try enterNesting(at: start)
        defer { leaveNesting() }
        return CDCompoundPredicate(notPredicateWithSubpredicate: try parseNot())
    }

    /// `( predicate )`, `TRUEPREDICATE`, `FALSEPREDICATE`, or a comparison.
    mutating func parsePrimaryPredicate() throws -> CDPredicate {
        let start = index
        if skip(.leftParen) {
            try enterNesting(at: start)
            defer { leaveNesting() }
            let inner = try parsePredicate()
            try expect(.rightParen)
            return inner
        }
        if let constant = try parseConstantPredicate() { return constant }
        return try parseComparison()
    }

    /// `[modifier] expression operator[options] expression`.
    mutating func parseComparison() throws -> CDPredicate {
        try beginComparison()
        let left = try parseExpression()
        let type = try parseComparisonOperator()
        let right = try parseExpression()
        return CDComparisonPredicate(leftExpression: left, rightExpression: right, type: type)
    }

    // MARK: - Limits

    /// Counts one level of nesting opened by the token at `tokenIndex`; throws past
    /// `PredicateLimits.maximumDepth`.
    mutating func enterNesting(at tokenIndex: Int) throws {
        depth += 1
        if depth > PredicateLimits.maximumDepth {
            let token = PredicateSyntaxError.describe(tokens[tokenIndex])
            throw error("nesting deeper than \(PredicateLimits.maximumDepth) levels at \(token)", at: tokenIndex)
        }
    }

    mutating func leaveNesting() { depth -= 1 }

    /// Counts one comparison or constant at the current token; throws past
    /// `PredicateLimits.maximumTermCount`.
    mutating func countTerm() throws {
        termCount += 1
        if termCount > PredicateLimits.maximumTermCount {
            throw error("more than \(PredicateLimits.maximumTermCount) comparisons, at \(describeCurrent)", at: index)
        }
    }
}
