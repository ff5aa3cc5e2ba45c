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
        if name == "castObject:toType:" { try Self.checkCast(values, arguments, expression) }
        if let op = Self.nativeOperators[name], values.count == 2, values.allSatisfy({ $0.kind == .number }) {
            return .scalar(SQLScalar(sql: "(\(values[0].sql) \(op) \(values[1].sql))", kind: .number))
        }
        let call = ([bind(.text(name))] + values.map(\.sql)).joined(separator: ", ")
        return .scalar(SQLScalar(sql: "\(SQLiteFunctions.function)(\(call))", kind: Self.resultKind(name, values, arguments)))
    }

    private static let nativeOperators = ["add:to:": "+", "from:subtract:": "-", "multiply:by:": "*"]
    private static let collectionOperators: [String: CollectionOperator] = ["sum:": .sum, "count:": .count, "average:": .average, "min:": .minimum, "max:": .maximum]

    /// `CAST` of a value whose type `CastEvaluation` cannot convert (a string to a date, a
    /// relationship to anything) is an error in memory for every non-`nil` value; it is one
    /// here too, when the query is compiled, rather than a comparison that is folded away
    /// (`CAST(title, 'NSDate') > 0` would otherwise match nothing instead of failing).
    private static func checkCast(_ values: [SQLScalar], _ arguments: [CDExpression], _ expression: CDExpression) throws {
        guard values.count == 2, case .constantValue(.string(let type)) = arguments[1].kind else { return }
        let castable: Set<String>
        switch type {
        case "NSDate", "Date": castable = ["date", "number"]
        case "NSNumber", "NSDecimalNumber": castable = ["number", "string", "date"]
        case "NSString", "String": castable = ["string", "number", "date", "uuid", "url"]
        default: return
        }
        let source: String
        switch values[0].kind {
        case .number: source = "number"
        case .string: source = "string"
        case .date: source = "date"
        case .data: source = "data"
        case .uuid: source = "uuid"
        case .url: source = "url"
        case .object: source = "object"
        case .null, .incomparable, .any: return
        }
        guard castable.contains(source) else {
            throw CoreDataError(.invalidPredicate, "\(expression.format): cannot CAST a value of type \(source) to \(type).", key: type)
        }
    }

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
