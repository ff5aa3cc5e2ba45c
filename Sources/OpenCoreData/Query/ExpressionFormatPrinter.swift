import Foundation

// MARK: - Expressions

extension PredicateFormatPrinter {
    /// Built-in functions written as infix operators, with their symbols.
    private static let infixFunctions: [String: String] = [
        "add:to:": "+", "from:subtract:": "-", "multiply:by:": "*", "divide:by:": "/", "raise:toPower:": "**",
    ]

    static func format(_ expression: CDExpression) -> String {
        switch expression.kind {
        case .constantValue(let value):
            return format(value)
        case .evaluatedObject:
            return "SELF"
        case .variable(let name):
            return "$" + name
        case .keyPath(let path):
            return keyPath(path)
        case .member(let base, let path):
            return operand(base) + "." + keyPath(path)
        case .index(let base, let index):
            return operand(base) + "[" + format(index) + "]"
        case .function(let name, let arguments):
            return function(name, arguments)
        case .customFunction(let target, let selector, let arguments):
            let parts = [format(target), quoted(selector)] + arguments.map(format)
            return "FUNCTION(" + parts.joined(separator: ", ") + ")"
        case .aggregate(let elements):
            return "{" + elements.map(format).joined(separator: ", ") + "}"
        case .subquery(let collection, let variable, let predicate):
            return "SUBQUERY(" + format(collection) + ", $" + variable + ", " + format(predicate) + ")"
        case .conditional(let predicate, let whenTrue, let whenFalse):
            return "TERNARY(" + format(predicate) + ", " + format(whenTrue) + ", " + format(whenFalse) + ")"
        case .unionSet(let left, let right):
            return operand(left) + " UNION " + operand(right)
        case .intersectSet(let left, let right):
            return operand(left) + " INTERSECT " + operand(right)
        case .minusSet(let left, let right):
            return operand(left) + " MINUS " + operand(right)
        case .anyKey:
            return "ANYKEY"
        }
    }

    private static func format(_ index: CDExpression.Index) -> String {
        switch index {
        case .first: return "FIRST"
        case .last: return "LAST"
        case .size: return "SIZE"
        case .expression(let expression): return format(expression)
        }
    }

    private static func function(_ name: String, _ arguments: [CDExpression]) -> String {
        if arguments.count == 2, let symbol = infixFunctions[name] {
            return operand(arguments[0]) + " " + symbol + " " + operand(arguments[1])
        }
        if arguments.count == 2, name == PredicateCast.functionName {
            return "CAST(" + format(arguments[0]) + ", " + format(arguments[1]) + ")"
        }
        return name + "(" + arguments.map(format).joined(separator: ", ") + ")"
    }

    /// An operand of an infix or postfix form: parenthesized when it is infix itself.
    private static func operand(_ expression: CDExpression) -> String {
        let text = format(expression)
        switch expression.kind {
        case .unionSet, .intersectSet, .minusSet:
            return "(" + text + ")"
        case .function(let name, let arguments) where arguments.count == 2 && infixFunctions[name] != nil:
            return "(" + text + ")"
        case .constantValue(.int64(let number)) where number < 0:
            return "(" + text + ")"
        case .constantValue(.double(let number)) where number.sign == .minus:
            return "(" + text + ")"
        default:
            return text
        }
    }
}
