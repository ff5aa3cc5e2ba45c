import Foundation

// MARK: - Expression levels (on the recursion path: keep frames small)

extension PredicateParser {
    /// A whole expression: operands joined by binary operators and preceded by unary `-`,
    /// folded by precedence with two stacks (no recursion per operator).
    mutating func parseExpression() throws -> CDExpression {
        var operands: [CDExpression] = []
        var operators: [PendingOperator] = []
        let depthOnEntry = depth
        defer { depth = depthOnEntry }
        while true {
            var negativeLiteral: CDExpression?
            while check(.minus) {
                negativeLiteral = try parseNegativeLiteral()
                if negativeLiteral != nil { break }
                try enterNesting(at: index)
                operators.append(PendingOperator(kind: .negate, tokenIndex: index))
                advance()
            }
            if let negativeLiteral { operands.append(negativeLiteral) } else { operands.append(try parsePostfix()) }
            guard let binary = ExpressionOperator.binary(at: current) else { break }
            try enterNesting(at: index)
            while let top = operators.last, top.kind.reducesBefore(binary) {
                Self.reduce(top.kind, on: &operands)
                operators.removeLast()
            }
            operators.append(PendingOperator(kind: binary, tokenIndex: index))
            advance()
        }
        while let top = operators.popLast() { Self.reduce(top.kind, on: &operands) }
        return operands[0]
    }

    /// A primary followed by `.key`, `.@operator` or `[index]` accessors. Each accessor that
    /// wraps the expression (rather than extending a key path) counts as a nesting level.
    mutating func parsePostfix() throws -> CDExpression {
        let depthOnEntry = depth
        defer { depth = depthOnEntry }
        var expression = try parsePrimaryExpression()
        while true {
            if check(.leftBracket) {
                try enterNesting(at: index)
                expression = try parseIndex(of: expression)
            } else if check(.dot) {
                if Self.wrapsOnMember(expression) { try enterNesting(at: index) }
                expression = try parseMember(of: expression)
            } else {
                return expression
            }
        }
    }

    /// `[FIRST]`, `[LAST]`, `[SIZE]` or `[expression]` after `base`.
    mutating func parseIndex(of base: CDExpression) throws -> CDExpression {
        advance()
        if let position = parseIndexKeyword() {
            try expect(.rightBracket)
            return CDExpression(.index(base, position))
        }
        let position = try parseExpression()
        try expect(.rightBracket)
        return CDExpression(.index(base, .expression(position)))
    }

    /// A parenthesized expression, an aggregate, a construct (`CAST`, `SUBQUERY`, `FUNCTION`,
    /// `TERNARY`, `name(…)`), or a leaf: a literal, `%@`, `%K`, `$variable`, `SELF`, a key.
    mutating func parsePrimaryExpression() throws -> CDExpression {
        switch current.kind {
        case .symbol(.leftParen): return try parseParenthesizedExpression()
        case .symbol(.leftBrace): return try parseAggregate()
        case .keyword(.cast): return try parseCast()
        case .keyword(.subquery): return try parseSubquery()
        case .keyword(.function): return try parseCustomFunction()
        case .keyword(.ternary): return try parseTernary()
        case .selector: return try parseFunctionCall()
        case .identifier where token(after: index).is(.leftParen): return try parseFunctionCall()
        default: return try parseLeafExpression()
        }
    }

    /// `( expression )`.
    mutating func parseParenthesizedExpression() throws -> CDExpression {
        try enterNesting(at: index)
        defer { leaveNesting() }
        advance()
        let inner = try parseExpression()
        try expect(.rightParen)
        return inner
    }

    /// `{a, b, …}`: folded to an array constant when every element is a constant.
    mutating func parseAggregate() throws -> CDExpression {
        try enterNesting(at: index)
        defer { leaveNesting() }
        advance()
        var elements: [CDExpression] = []
        if !skip(.rightBrace) {
            repeat {
                elements.append(try parseExpression())
            } while skip(.comma)
            try expect(.rightBrace)
        }
        return Self.foldAggregate(elements)
    }
}

// MARK: - Operators (not recursive)

/// An operator waiting on the operator stack, with the token that wrote it.
struct PendingOperator {
    let kind: ExpressionOperator
    let tokenIndex: Int
}

/// The operators between and before expression operands, by precedence.
enum ExpressionOperator {
    case union, intersect, minus
    case add, subtract, multiply, divide
    case negate
    case power

    /// The binary operator the token writes, if any.
    static func binary(at token: PredicateToken) -> ExpressionOperator? {
        switch token.kind {
        case .keyword(.setUnion): return .union
        case .keyword(.setIntersect): return .intersect
        case .keyword(.setMinus): return .minus
        case .symbol(.plus): return .add
        case .symbol(.minus): return .subtract
        case .symbol(.star): return .multiply
        case .symbol(.slash): return .divide
        case .symbol(.power): return .power
        default: return nil
        }
    }

    private var precedence: Int {
        switch self {
        case .union, .intersect, .minus: return 1
        case .add, .subtract: return 2
        case .multiply, .divide: return 3
        case .negate: return 4
        case .power: return 5
        }
    }

    /// Whether this operator, on the stack, applies before `incoming` is pushed:
    /// `**` groups to the right, the others to the left.
    func reducesBefore(_ incoming: ExpressionOperator) -> Bool {
        if incoming == .power { return precedence > incoming.precedence }
        return precedence >= incoming.precedence
    }

    /// The function name a binary arithmetic operator folds to.
    fileprivate var functionName: String? {
        switch self {
        case .add: return "add:to:"
        case .subtract, .negate: return PredicateFunctions.subtract
        case .multiply: return "multiply:by:"
        case .divide: return "divide:by:"
        case .power: return "raise:toPower:"
        case .union, .intersect, .minus: return nil
        }
    }
}

extension PredicateParser {
    /// Replaces the top operand(s) with `kind` applied to them.
    static func reduce(_ kind: ExpressionOperator, on operands: inout [CDExpression]) {
        let right = operands.removeLast()
        if kind == .negate {
            operands.append(CDExpression(.function(PredicateFunctions.subtract, arguments: [.constant(.int64(0)), right])))
            return
        }
        let left = operands.removeLast()
        switch kind {
        case .union: operands.append(CDExpression(.unionSet(left, right)))
        case .intersect: operands.append(CDExpression(.intersectSet(left, right)))
        case .minus: operands.append(CDExpression(.minusSet(left, right)))
        default: operands.append(CDExpression(.function(kind.functionName ?? "", arguments: [left, right])))
        }
    }

    /// `-` directly followed by a number literal (and no `**`, `.` or `[` after it), as a
    /// negative constant; `nil`, consuming nothing, for any other `-`.
    mutating func parseNegativeLiteral() throws -> CDExpression? {
        let following = token(after: index + 1)
        if following.is(.power) || following.is(.dot) || following.is(.leftBracket) { return nil }
        let literal: CDExpression
        switch token(after: index).kind {
        case .integer(let magnitude):
            if magnitude <= UInt64(Int64.max) {
                literal = .constant(.int64(-Int64(magnitude)))
            } else if magnitude == UInt64(Int64.max) + 1 {
                literal = .constant(.int64(.min))
            } else {
                literal = .constant(.double(-Double(magnitude)))
            }
        case .double(let value):
            literal = .constant(.double(-value))
        default:
            return nil
        }
        advance()
        advance()
        return literal
    }

    /// Whether `.key` after `expression` wraps it in a `.member` (rather than extending a key path).
    static func wrapsOnMember(_ expression: CDExpression) -> Bool {
        switch expression.kind {
        case .keyPath, .evaluatedObject, .member: return false
        default: return true
        }
    }

    /// `.key` after `base`: extends a key path, or reads a key from another expression's value.
    mutating func parseMember(of base: CDExpression) throws -> CDExpression {
        advance()
        let key = try parseKeyComponent()
        switch base.kind {
        case .keyPath(let path): return .keyPath(path + "." + key)
        case .evaluatedObject: return .keyPath(key)
        case .member(let inner, let path): return CDExpression(.member(inner, keyPath: path + "." + key))
        default: return CDExpression(.member(base, keyPath: key))
        }
    }

    /// `FIRST`, `LAST` or `SIZE` inside `[…]`.
    mutating func parseIndexKeyword() -> CDExpression.Index? {
        let position: CDExpression.Index
        switch current.kind {
        case .keyword(.first): position = .first
        case .keyword(.last): position = .last
        case .keyword(.size): position = .size
        default: return nil
        }
        advance()
        return position
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
            let atIndex = index
            advance()
            guard case .identifier(let name) = current.kind else {
                throw error("expected a collection operator after '@', found \(describeCurrent)", at: index)
            }
            guard PredicateFunctions.collectionOperators.contains("@" + name) else {
                let known = PredicateFunctions.collectionOperators.sorted().joined(separator: ", ")
                throw error("unknown collection operator '@\(name)' (known: \(known))", at: atIndex)
            }
            advance()
            return "@" + name
        default:
            throw error("expected a key after '.', found \(describeCurrent)", at: index)
        }
    }

    /// An aggregate's expression: an array constant when all elements are constants.
    static func foldAggregate(_ elements: [CDExpression]) -> CDExpression {
        var values: [CDValue] = []
        for element in elements {
            guard case .constantValue(let value) = element.kind else { return CDExpression(.aggregate(elements)) }
            values.append(value)
        }
        return .constant(.array(values))
    }
}
