import Foundation

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
}

extension PredicateParser {
    /// Replaces the top operand(s) with `kind` applied to them: a set expression, or the
    /// arithmetic function the operator stands for (`-x` is `0 - x`).
    static func reduce(_ kind: ExpressionOperator, on operands: inout [CDExpression]) {
        let right = operands.removeLast()
        let left = kind == .negate ? CDExpression.constant(.int64(0)) : operands.removeLast()
        let combined: CDExpression.Kind
        switch kind {
        case .union: combined = .unionSet(left, right)
        case .intersect: combined = .intersectSet(left, right)
        case .minus: combined = .minusSet(left, right)
        case .add: combined = .function("add:to:", arguments: [left, right])
        case .subtract, .negate: combined = .function(PredicateFunctions.subtract, arguments: [left, right])
        case .multiply: combined = .function("multiply:by:", arguments: [left, right])
        case .divide: combined = .function("divide:by:", arguments: [left, right])
        case .power: combined = .function("raise:toPower:", arguments: [left, right])
        }
        operands.append(CDExpression(combined))
    }
}
