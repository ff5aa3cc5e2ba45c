import Foundation

// MARK: - Comparison steps (not recursive)

extension PredicateParser {
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
}

/// The modifier written before a comparison. `NONE` has no tree form of its own: it
/// becomes `NOT ANY`.
enum PredicateModifier {
    case direct, any, all, none
}
