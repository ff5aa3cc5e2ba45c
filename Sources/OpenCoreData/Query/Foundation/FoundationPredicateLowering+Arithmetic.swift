import Foundation

// MARK: - Arithmetic, as NSExpression's functions

extension PredicateExpressions.Arithmetic: LoweredAsValue {
    /// `a + b`, `a - b`, `a * b`: `add:to:`, `from:subtract:`, `multiply:by:`.
    func loweredExpression(in scope: PredicateLoweringScope) throws -> CDExpression {
        let name = switch op {
        case .add: "add:to:"
        case .subtract: "from:subtract:"
        case .multiply: "multiply:by:"
        }
        return CDExpression(forFunction: name, arguments: [try scope.expression(lhs), try scope.expression(rhs)])
    }
}

extension PredicateExpressions.FloatDivision: LoweredAsValue {
    /// `a / b` of floating-point values: `divide:by:`.
    func loweredExpression(in scope: PredicateLoweringScope) throws -> CDExpression {
        CDExpression(forFunction: "divide:by:", arguments: [try scope.expression(lhs), try scope.expression(rhs)])
    }
}

extension PredicateExpressions.IntDivision: LoweredAsValue {
    /// `a / b` of integers truncates in Swift, while `divide:by:` always gives a double:
    /// `trunc:(divide:by:(a, b))` keeps Swift's answer.
    func loweredExpression(in scope: PredicateLoweringScope) throws -> CDExpression {
        let quotient = CDExpression(forFunction: "divide:by:", arguments: [try scope.expression(lhs), try scope.expression(rhs)])
        return CDExpression(forFunction: "trunc:", arguments: [quotient])
    }
}

extension PredicateExpressions.IntRemainder: LoweredAsValue {
    /// `a % b`: `modulus:by:`.
    func loweredExpression(in scope: PredicateLoweringScope) throws -> CDExpression {
        CDExpression(forFunction: "modulus:by:", arguments: [try scope.expression(lhs), try scope.expression(rhs)])
    }
}

extension PredicateExpressions.UnaryMinus: LoweredAsValue {
    /// `-a` is `from:subtract:(0, a)`, as the format parser reads a negated expression;
    /// a negated number literal (`-2`) is a negative constant, as the parser reads `-2`.
    func loweredExpression(in scope: PredicateLoweringScope) throws -> CDExpression {
        let operand = try scope.expression(wrapped)
        switch operand.kind {
        case .constantValue(.int64(let number)) where number != .min: return .constant(.int64(-number))
        case .constantValue(.double(let number)): return .constant(.double(-number))
        default: return CDExpression(forFunction: "from:subtract:", arguments: [.constant(0), operand])
        }
    }
}
