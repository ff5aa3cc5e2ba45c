import Foundation

/// A recursive-descent parser for predicate format strings: one function per predicate
/// precedence level, lowest first, and an operator-precedence loop for expressions.
///
/// Predicate levels (this file): `OR` < `AND` < `NOT` < parenthesized / constant / comparison
/// (with its `ANY` / `ALL` / `SOME` / `NONE` modifier and `[cdn]` options).
/// Expressions (`PredicateParserExpressions.swift`): `UNION` `INTERSECT` `MINUS` < `+ -` <
/// `* /` < unary `-` < `**` < postfix (`.key`, `[index]`) < primary (literals, `%@`, `$var`,
/// keys, `( … )`, `{ … }`, and the constructs of `PredicateParserConstructs.swift`).
///
/// Stack safety: every recursion passes through `enterNesting(at:)`, which bounds the depth,
/// and the functions on the recursion path keep their frames small — they hold token indexes,
/// never tokens or strings, and leave token inspection and error messages to non-recursive
/// helpers (`PredicateParserSteps.swift`), because unoptimized builds give every temporary
/// its own stack slot. Binary operators are folded by a loop, not by recursion, but each one
/// counts as a level so that the trees' height — which printing, hashing and evaluating
/// recurse over — stays bounded too.
struct PredicateParser {
    let format: String
    let tokens: [PredicateToken]
    /// The index in `tokens` of the current token.
    var index = 0
    var arguments: [Any?]
    var nextArgument = 0
    var depth = 0
    var termCount = 0
    /// For each `(` token, the index of its matching `)` (or -1): lets a predicate that
    /// starts with `(` tell a parenthesized predicate from a parenthesized expression.
    let matchingParenthesis: [Int]

    /// Set when parsing stopped at a limit (depth or term count) rather than at bad syntax.
    var exceededLimit = false

    /// Parses `format` with its `%@`/`%K` arguments into a predicate tree.
    ///
    /// The limits hold for the predicate's canonical form too (`predicateFormat`, which can
    /// nest deeper than the input: `-x` prints as `0 - x`, a `%@` date as `CAST(…)`), so that
    /// every predicate accepted here prints to a format that parses back. Only a tree too
    /// high to be sure of that (`PredicateTreeHeight`) is printed and checked again.
    static func parse(_ format: String, arguments: [Any?]) throws -> CDPredicate {
        let length = format.utf8.count
        guard length <= PredicateLimits.maximumFormatLength else {
            throw PredicateSyntaxError.make(
                "the format is \(length) bytes long; the limit is \(PredicateLimits.maximumFormatLength)",
                offset: nil, format: format
            )
        }
        var exceededLimit = false
        let predicate = try parseTokens(of: format, arguments: arguments, exceededLimit: &exceededLimit)
        guard PredicateTreeHeight.exceeds(predicate, PredicateLimits.maximumDepth / 3) else { return predicate }
        let canonical = PredicateFormatPrinter.format(predicate)
        if canonical != format {
            do {
                _ = try parseTokens(of: canonical, arguments: [], exceededLimit: &exceededLimit)
            } catch let limit as CoreDataError where exceededLimit {
                throw PredicateSyntaxError.make(
                    "written canonically it exceeds a limit (\(limit.message))", offset: nil, format: format
                )
            } catch {
                // Not a limit: a printer bug, which the round-trip tests and the fuzzer report.
            }
        }
        return predicate
    }

    /// Lexes and parses `format`, any length; sets `exceededLimit` when a limit stopped it.
    private static func parseTokens(of format: String, arguments: [Any?], exceededLimit: inout Bool) throws -> CDPredicate {
        let tokens = try PredicateLexer.tokenize(format)
        var parser = PredicateParser(
            format: format, tokens: tokens, arguments: arguments, matchingParenthesis: matchParentheses(tokens)
        )
        defer { exceededLimit = parser.exceededLimit }
        try parser.checkNestingBeforeParsing()
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

    /// `( predicate )`, `TRUEPREDICATE`, `FALSEPREDICATE`, or a comparison (which may
    /// itself start with a parenthesized expression: `(a + b) * 2 > c`).
    mutating func parsePrimaryPredicate() throws -> CDPredicate {
        let start = index
        if check(.leftParen), !startsParenthesizedExpression() {
            advance()
            try enterNesting(at: start)
            defer { leaveNesting() }
            let inner = try parsePredicate()
            try expect(.rightParen)
            return inner
        }
        if let constant = try parseConstantPredicate() { return constant }
        return try parseComparison()
    }

    /// `[modifier] expression operator[options] expression`; `NONE` is `NOT ANY`.
    mutating func parseComparison() throws -> CDPredicate {
        let modifier = try beginComparison()
        let left = try parseExpression()
        let operatorIndex = index
        let type = try parseComparisonOperator()
        let options = try parseComparisonOptions()
        let right = try parseExpression()
        return try makeComparison(left, type, right, modifier: modifier, options: options, operatorIndex: operatorIndex)
    }

    // MARK: - Limits

    /// Counts one level of nesting opened by the token at `tokenIndex`; throws past
    /// `PredicateLimits.maximumDepth`.
    mutating func enterNesting(at tokenIndex: Int) throws {
        depth += 1
        if depth > PredicateLimits.maximumDepth {
            exceededLimit = true
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
            exceededLimit = true
            throw error("more than \(PredicateLimits.maximumTermCount) comparisons, at \(describeCurrent)", at: index)
        }
    }
}
