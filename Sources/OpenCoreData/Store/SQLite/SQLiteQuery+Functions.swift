import Foundation

/// NSExpression's functions over stored values, as native SQL where SQLite gives the
/// evaluator's answer: integers stay integers and overflow to REAL (as SQLite's `+ - *`
/// do), `divide:by:` is always a double, division by zero and any nil operand give nil.
extension SQLiteQuery {
    mutating func function(_ name: String, _ arguments: [CDExpression], _ expression: CDExpression) throws -> SQLOperand {
        if name == "count:", arguments.count == 1, case .collection(let collection) = try operand(arguments[0]) {
            return .scalar(SQLScalar(sql: "(SELECT count(*) \(collection.body()))", kind: .number, isNullable: false))
        }
        let values = try arguments.map { try scalar(operand($0), expression) }
        func numbers(_ count: Int) throws -> [SQLScalar]? {
            guard values.count == count else {
                throw CoreDataError(.invalidPredicate, "\(expression.format): \(name) takes \(count) argument\(count == 1 ? "" : "s").")
            }
            // A non-number operand gives nil, as in memory.
            return values.allSatisfy({ $0.kind == .number || $0.kind == .any }) ? values : nil
        }
        let null = SQLOperand.scalar(SQLScalar(sql: "NULL", kind: .null))
        func number(_ sql: String) -> SQLOperand { .scalar(SQLScalar(sql: sql, kind: .number)) }
        switch name {
        case "add:to:", "from:subtract:", "multiply:by:":
            guard let v = try numbers(2) else { return null }
            let op = name == "add:to:" ? "+" : name == "from:subtract:" ? "-" : "*"
            return number("(\(v[0].sql) \(op) \(v[1].sql))")
        case "divide:by:":
            guard let v = try numbers(2) else { return null }
            return number("(CAST(\(v[0].sql) AS REAL) / \(v[1].sql))")
        case "modulus:by:":
            guard let v = try numbers(2) else { return null }
            // SQLite's % truncates REAL operands to integers; only integers are exact natively.
            return number("(CASE WHEN typeof(\(v[0].sql)) = 'integer' AND typeof(\(v[1].sql)) = 'integer' THEN \(v[0].sql) % \(v[1].sql) WHEN \(v[1].sql) = 0 THEN NULL ELSE \(v[0].sql) - \(v[1].sql) * trunc(\(v[0].sql) / \(v[1].sql)) END)")
        case "abs:":
            guard let v = try numbers(1) else { return null }
            return number("(CASE WHEN \(v[0].sql) = -9223372036854775808 THEN 9223372036854775808.0 ELSE abs(\(v[0].sql)) END)")
        default:
            break
        }
        throw CoreDataError(.invalidPredicate, "\(expression.format): the function \(name) cannot run over stored values in a store query.")
    }
}
