import Foundation

/// Compiles predicates and sort descriptors to SQL with bound parameters only, giving
/// the same answers as the in-memory evaluator:
/// - `==` / `!=` compile to `IS` / `IS NOT`, so nil equals only nil;
/// - ordering comparisons never match nil (`col IS NOT NULL AND col < ?`), so `NOT`
///   of them behaves as in memory;
/// - a constant whose type cannot be compared with the attribute's (a number against a
///   string) matches nothing for `==` and orderings and everything for `!=`;
/// - long AND/OR chains are nested as balanced trees, within SQLite's expression depth.
extension SQLiteQuery {
    mutating func compile(_ predicate: CDPredicate) throws -> String {
        switch predicate.kind {
        case .constant(let value):
            return value ? "1" : "0"
        case .compound(let compound):
            let parts = try compound.subpredicates.map { try compile($0) }
            switch compound.compoundPredicateType {
            case .not: return "NOT (\(parts.first ?? "1"))"
            case .and: return parts.isEmpty ? "1" : balanced(parts, "AND")
            case .or: return parts.isEmpty ? "0" : balanced(parts, "OR")
            }
        case .comparison(let comparison):
            return try compile(comparison)
        }
    }

    /// `(a OP b)` nested as a balanced tree: depth log2(n), not n.
    private func balanced(_ parts: ArraySlice<String>, _ op: String) -> String {
        if parts.count == 1 { return parts.first! }
        let middle = parts.startIndex + parts.count / 2
        return "(\(balanced(parts[..<middle], op)) \(op) \(balanced(parts[middle...], op)))"
    }

    private func balanced(_ parts: [String], _ op: String) -> String { balanced(parts[...], op) }

    // MARK: - Comparisons

    private enum Operand {
        case column(String, PropertyDescription)
        case value(CDValue)
    }

    private mutating func compile(_ comparison: CDComparisonPredicate) throws -> String {
        guard comparison.comparisonPredicateModifier == .direct, comparison.options.isEmpty else {
            throw unsupported(comparison)
        }
        let op: String
        switch comparison.predicateOperatorType {
        case .equalTo: op = "IS"
        case .notEqualTo: op = "IS NOT"
        case .lessThan: op = "<"
        case .lessThanOrEqualTo: op = "<="
        case .greaterThan: op = ">"
        case .greaterThanOrEqualTo: op = ">="
        default: throw unsupported(comparison)
        }
        let left = try operand(comparison.leftExpression, comparison)
        let right = try operand(comparison.rightExpression, comparison)
        switch (left, right) {
        case (.value, .value):
            return comparison.evaluate(with: nil) ? "1" : "0"
        case (.column(let column, let property), .value(let value)):
            return try columnVersusValue(column, property, op, value)
        case (.value(let value), .column(let column, let property)):
            return try columnVersusValue(column, property, Self.mirrored(op), value)
        case (.column(let lhs, _), .column(let rhs, _)):
            if op == "IS" || op == "IS NOT" { return "\(lhs) \(op) \(rhs)" }
            return "(\(lhs) IS NOT NULL AND \(rhs) IS NOT NULL AND \(lhs) \(op) \(rhs))"
        }
    }

    private static func mirrored(_ op: String) -> String {
        switch op {
        case "<": return ">"
        case "<=": return ">="
        case ">": return "<"
        case ">=": return "<="
        default: return op
        }
    }

    private mutating func operand(_ expression: CDExpression, _ comparison: CDComparisonPredicate) throws -> Operand {
        switch expression.kind {
        case .constantValue(let value):
            return .value(value)
        case .keyPath(let keyPath):
            let (sql, property) = try column(forKeyPath: keyPath)
            return .column(sql, property)
        case .evaluatedObject:
            return .column("t0.Z_PK", RelationshipDescription(name: "SELF", destination: entity))
        default:
            throw unsupported(comparison)
        }
    }

    private mutating func columnVersusValue(_ column: String, _ property: PropertyDescription, _ op: String, _ value: CDValue) throws -> String {
        let isEquality = op == "IS" || op == "IS NOT"
        let never = op == "IS NOT" ? "1" : "0"
        if value.isNull {
            return isEquality ? "\(column) \(op) NULL" : "0"
        }
        guard let bound = try sqlValue(value, for: property) else { return never }
        let placeholder = bind(bound)
        return isEquality ? "\(column) \(op) \(placeholder)" : "(\(column) IS NOT NULL AND \(column) \(op) \(placeholder))"
    }

    /// The value as the column stores it, or nil when it can never compare with it.
    private func sqlValue(_ value: CDValue, for property: PropertyDescription) throws -> SQLValue? {
        if let relationship = property as? RelationshipDescription {
            guard case .objectID(let id) = value, let key = id.primaryKey,
                  let destination = relationship.destinationEntity,
                  id.entity.rootEntity === destination.rootEntity else { return nil }
            return .integer(key)
        }
        let attribute = property as! AttributeDescription
        switch (attribute.attributeType, value) {
        case (.string, .string), (.uri, .url), (.uuid, .uuid), (.date, .date), (.binaryData, .data):
            return try attribute.sqlValue(for: value.anyValue)
        case (.integer16, _), (.integer32, _), (.integer64, _), (.double, _), (.float, _), (.decimal, _), (.boolean, _):
            switch value {
            case .bool(let flag): return .integer(flag ? 1 : 0)
            case .int64(let number): return .integer(number)
            case .double(let number): return .real(number)
            case .decimal(let number): return .text("\(number)")
            default: return nil
            }
        default:
            return nil
        }
    }

    private func unsupported(_ comparison: CDComparisonPredicate) -> CoreDataError {
        CoreDataError(.invalidPredicate, "The predicate '\(comparison.predicateFormat)' uses an operator, modifier, option or expression this store cannot evaluate yet.")
    }

    // MARK: - Sorting

    mutating func orderTerm(for descriptor: CDSortDescriptor) throws -> String {
        let (column, _) = try column(forKeyPath: descriptor.key)
        return column + (descriptor.ascending ? " ASC" : " DESC")
    }
}
