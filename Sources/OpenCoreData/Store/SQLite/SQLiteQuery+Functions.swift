import Foundation

/// NSExpression's functions over stored values. `+`, `-` and `*` of two numbers are
/// native SQL, which gives the evaluator's answer (integers stay integers and overflow to
/// REAL; nil gives nil); every other function runs the evaluator's own
/// `FunctionEvaluation` through `ocd_function`, with its name bound as a parameter, so
/// results and errors (a wrong operand type is a typed `.invalidPredicate` from the
/// fetch) are the same. A statistics function over one to-many argument (`sum:`,
/// `count:`, `average:`, `min:`, `max:`) is the matching aggregate subquery.
extension SQLiteQuery {
    mutating func function(_ name: String, _ arguments: [CDExpression], _ expression: CDExpression) throws -> SQLOperand {
        if let collectionOperator = Self.collectionOperators[name], arguments.count == 1,
           case .collection(let collection) = try operand(arguments[0]) {
            return try self.collectionOperator(collectionOperator, of: .collection(collection), then: [], whole: expression.format)
        }
        let values = try arguments.map { try scalar(operand($0), expression) }
        if let op = Self.nativeOperators[name], values.count == 2, values.allSatisfy({ $0.kind == .number }) {
            return .scalar(SQLScalar(sql: "(\(values[0].sql) \(op) \(values[1].sql))", kind: .number))
        }
        let call = ([bind(.text(name))] + values.map(\.sql)).joined(separator: ", ")
        return .scalar(SQLScalar(sql: "\(SQLiteFunctions.function)(\(call))", kind: Self.resultKind(name, values, arguments)))
    }

    private static let nativeOperators = ["add:to:": "+", "from:subtract:": "-", "multiply:by:": "*"]
    private static let collectionOperators = ["sum:": "@sum", "count:": "@count", "average:": "@avg", "min:": "@min", "max:": "@max"]

    /// What a function returns, for comparing it with other values.
    private static func resultKind(_ name: String, _ values: [SQLScalar], _ arguments: [CDExpression]) -> SQLValueKind {
        let kinds = values.map(\.kind)
        switch name {
        case "add:to:": return kinds.contains(.date) ? .date : .number
        case "from:subtract:": return kinds.first == .date && kinds.last != .date ? .date : .number
        case "uppercase:", "lowercase:": return .string
        case "min:", "max:", "noindex:": return kinds.allSatisfy { $0 == kinds.first } ? kinds.first ?? .null : .any
        case "mode:": return .incomparable
        case "castObject:toType:":
            guard arguments.count == 2, case .constantValue(.string(let type)) = arguments[1].kind else { return .any }
            switch type {
            case "NSNumber": return .number
            case "NSString": return .string
            case "NSDate": return .date
            default: return .any
            }
        default: return .number
        }
    }
}
