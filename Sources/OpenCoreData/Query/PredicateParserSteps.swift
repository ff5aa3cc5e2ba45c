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

    /// Counts a comparison and reads its modifier, if any.
    mutating func beginComparison() throws -> PredicateModifier {
        try countTerm()
        let modifier: PredicateModifier
        switch current.kind {
        case .keyword(.any), .keyword(.some): modifier = .any
        case .keyword(.all): modifier = .all
        case .keyword(.none): modifier = .none
        default: return .direct
        }
        advance()
        return modifier
    }

    /// The comparison operator at the current token.
    mutating func parseComparisonOperator() throws -> CDComparisonPredicate.Operator {
        let type: CDComparisonPredicate.Operator
        switch current.kind {
        case .symbol(.equal): type = .equalTo
        case .symbol(.notEqual): type = .notEqualTo
        case .symbol(.less): type = .lessThan
        case .symbol(.lessOrEqual): type = .lessThanOrEqualTo
        case .symbol(.greater): type = .greaterThan
        case .symbol(.greaterOrEqual): type = .greaterThanOrEqualTo
        case .keyword(.like): type = .like
        case .keyword(.matches): type = .matches
        case .keyword(.beginsWith): type = .beginsWith
        case .keyword(.endsWith): type = .endsWith
        case .keyword(.contains): type = .contains
        case .keyword(.in): type = .in
        case .keyword(.between): type = .between
        default:
            throw error("expected a comparison operator, found \(describeCurrent)", at: index)
        }
        advance()
        return type
    }

    /// `[c]`, `[d]`, `[n]` or a combination (`[cd]`), in any case, after an operator.
    mutating func parseComparisonOptions() throws -> CDComparisonPredicate.Options {
        guard skip(.leftBracket) else { return [] }
        let lettersIndex = index
        guard case .identifier(let letters) = current.kind else {
            throw error("expected comparison options such as 'c', 'd' or 'cd' after '[', found \(describeCurrent)", at: index)
        }
        var options: CDComparisonPredicate.Options = []
        for letter in letters.lowercased() {
            let option: CDComparisonPredicate.Options
            switch letter {
            case "c": option = .caseInsensitive
            case "d": option = .diacriticInsensitive
            case "n": option = .normalized
            default:
                throw error("unknown comparison option '\(letter)' in \(describeCurrent) (options are c, d and n)", at: lettersIndex)
            }
            guard !options.contains(option) else {
                throw error("comparison option '\(letter)' repeated in \(describeCurrent)", at: lettersIndex)
            }
            options.insert(option)
        }
        advance()
        try expect(.rightBracket)
        return options
    }

    /// The comparison predicate for parsed parts; checks `BETWEEN`'s bounds.
    func makeComparison(
        _ left: CDExpression, _ type: CDComparisonPredicate.Operator, _ right: CDExpression,
        modifier: PredicateModifier, options: CDComparisonPredicate.Options, operatorIndex: Int
    ) throws -> CDPredicate {
        if type == .between, let count = Self.literalElementCount(right), count != 2 {
            throw error("BETWEEN needs two bounds, {lower, upper}; found \(count)", at: operatorIndex)
        }
        let treeModifier: CDComparisonPredicate.Modifier
        switch modifier {
        case .direct: treeModifier = .direct
        case .any, .none: treeModifier = .any
        case .all: treeModifier = .all
        }
        let comparison = CDComparisonPredicate(
            leftExpression: left, rightExpression: right, modifier: treeModifier, type: type, options: options
        )
        return modifier == .none ? CDCompoundPredicate(notPredicateWithSubpredicate: comparison) : comparison
    }

    /// The number of elements of a literal collection (`{…}` or an array constant).
    private static func literalElementCount(_ expression: CDExpression) -> Int? {
        switch expression.kind {
        case .aggregate(let elements): return elements.count
        case .constantValue(.array(let values)): return values.count
        default: return nil
        }
    }

    /// Whether the `(` at the current token opens an expression (the left side of a
    /// comparison) rather than a parenthesized predicate: its `)` is followed by an operator.
    func startsParenthesizedExpression() -> Bool {
        let close = matchingParenthesis[index]
        guard close >= 0, close + 1 < tokens.count else { return false }
        switch tokens[close + 1].kind {
        case .symbol(let symbol):
            switch symbol {
            case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual,
                 .plus, .minus, .star, .slash, .power, .dot, .leftBracket:
                return true
            default:
                return false
            }
        case .keyword(let keyword):
            switch keyword {
            case .like, .matches, .beginsWith, .endsWith, .contains, .in, .between,
                 .setUnion, .setIntersect, .setMinus:
                return true
            default:
                return false
            }
        default:
            return false
        }
    }

    /// For each `(` in `tokens`, the index of its matching `)`; -1 elsewhere and when unmatched.
    static func matchParentheses(_ tokens: [PredicateToken]) -> [Int] {
        var matches = [Int](repeating: -1, count: tokens.count)
        var open: [Int] = []
        for (position, token) in tokens.enumerated() {
            if token.is(.leftParen) {
                open.append(position)
            } else if token.is(.rightParen), let opening = open.popLast() {
                matches[opening] = position
            }
        }
        return matches
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

/// The modifier written before a comparison. `NONE` has no tree form of its own: it
/// becomes `NOT ANY`.
enum PredicateModifier {
    case direct, any, all, none
}
