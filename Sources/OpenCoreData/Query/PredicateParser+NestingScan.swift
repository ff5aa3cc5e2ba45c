import Foundation

// MARK: - Nesting checked before parsing

extension PredicateParser {
    /// Rejects a format nested deeper than `PredicateLimits.maximumDepth` before the
    /// recursive parser starts, in one loop over the tokens, so that a hostile input
    /// (`((((…`, `NOT NOT …`, `----…`, `sqrt(sqrt(…`) fails on any stack, however small.
    ///
    /// It counts the brackets `( [ {` open at each token plus the prefix operators
    /// (`NOT`, `!`, unary `-`) that apply to them. The parser checks the exact depth again
    /// as it recurses (`enterNesting(at:)`); this scan only needs to stop deep inputs early.
    mutating func checkNestingBeforeParsing() throws {
        var open: [Int] = []
        var levelsInOpenBrackets = 0
        var pendingPrefixes = 0
        for position in tokens.indices {
            let token = tokens[position]
            if isPrefixOperator(at: position) {
                pendingPrefixes += 1
            } else if token.is(.leftParen) || token.is(.leftBracket) || token.is(.leftBrace) {
                open.append(pendingPrefixes + 1)
                levelsInOpenBrackets += pendingPrefixes + 1
                pendingPrefixes = 0
            } else if token.is(.rightParen) || token.is(.rightBracket) || token.is(.rightBrace) {
                levelsInOpenBrackets -= open.popLast() ?? 0
                pendingPrefixes = 0
            } else {
                pendingPrefixes = 0
            }
            if levelsInOpenBrackets + pendingPrefixes > PredicateLimits.maximumDepth {
                exceededLimit = true
                throw error(
                    "nesting deeper than \(PredicateLimits.maximumDepth) levels at \(PredicateSyntaxError.describe(token))",
                    at: position
                )
            }
        }
    }

    /// Whether the token at `position` is `NOT`, `!`, or a `-` that negates (rather than subtracts).
    private func isPrefixOperator(at position: Int) -> Bool {
        let token = tokens[position]
        if token.is(.not) || token.is(.bang) { return true }
        guard token.is(.minus) else { return false }
        return position == 0 || !Self.endsOperand(tokens[position - 1])
    }

    /// Whether `token` can be the last token of an operand, so that a `-` after it subtracts.
    private static func endsOperand(_ token: PredicateToken) -> Bool {
        switch token.kind {
        case .identifier, .escapedIdentifier, .integer, .double, .string, .variable, .formatSpecifier:
            return true
        case .symbol(let symbol):
            return symbol == .rightParen || symbol == .rightBracket || symbol == .rightBrace
        case .keyword(let keyword):
            switch keyword {
            case .nil, .null, .self, .true, .yes, .false, .no, .first, .last, .size, .anyKey: return true
            default: return false
            }
        case .selector, .end:
            return false
        }
    }
}
