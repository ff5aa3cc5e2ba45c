import Foundation

/// A `BatchUpdateRequest` resolved against the model: the rows to change and, per
/// attribute, how its new value is computed. Both stores compute the same values:
/// integer arithmetic stays integer (a double on overflow), `divide:by:` gives a double,
/// division by zero and nil operands give nil, and a computed value is converted to the
/// attribute's type (integers truncate toward zero, as SQLite's `CAST` does).
struct BatchUpdatePlan {
    indirect enum Value {
        /// A constant, already in the attribute's Swift type when it is the whole value.
        case constant(Any?)
        /// Another attribute of the same row.
        case attribute(slot: Int, AttributeDescription)
        case arithmetic(Operator, Value, Value)
    }

    enum Operator: String, CaseIterable {
        case add = "add:to:", subtract = "from:subtract:", multiply = "multiply:by:", divide = "divide:by:"
    }

    struct Assignment {
        let slot: Int
        let attribute: AttributeDescription
        let value: Value
    }

    let fetch: StoreFetch
    let assignments: [Assignment]

    init(_ request: BatchUpdateRequest, model: ManagedObjectModel) throws {
        let fetchRequest = FetchRequest<ManagedObject>(entityName: request.entityName)
        fetchRequest.predicate = request.predicate
        fetchRequest.includesSubentities = request.includesSubentities
        fetch = try StoreFetch(fetchRequest, model: model)
        let entity = fetch.entity
        guard let properties = request.propertiesToUpdate, !properties.isEmpty else {
            throw CoreDataError(.invalidFetchRequest, "A batch update of \(entity.name) needs propertiesToUpdate.")
        }
        assignments = try properties.sorted { $0.key < $1.key }.map { key, value in
            guard let slot = entity.slots.slotByName[key], let attribute = entity.slots.attributes[slot], !attribute.isTransient else {
                throw CoreDataError(.invalidFetchRequest, "A batch update can change stored attributes only; \(entity.name) has no such attribute '\(key)'.", key: key)
            }
            let resolved: Value
            if let expression = value as? CDExpression {
                resolved = try Self.value(of: expression, in: entity, key: key)
            } else {
                resolved = .constant(value)
            }
            return Assignment(slot: slot, attribute: attribute, value: try Self.checked(resolved, for: attribute))
        }
    }

    /// A whole-value constant converted to the attribute's type, or a typed error.
    private static func checked(_ value: Value, for attribute: AttributeDescription) throws -> Value {
        guard case .constant(let constant) = value else { return value }
        let (converted, isCanonical) = attribute.canonicalize(constant)
        guard isCanonical else { throw attribute.wrongTypeError(constant as Any).named(attribute.name) }
        if converted == nil && !attribute.isOptional {
            throw CoreDataError(.validationMissingMandatoryProperty, "A batch update cannot set the required attribute \(attribute.entity?.name ?? "").\(attribute.name) to nil.", key: attribute.name)
        }
        return .constant(converted)
    }

    private static func value(of expression: CDExpression, in entity: EntityDescription, key: String) throws -> Value {
        switch expression.kind {
        case .constantValue(let constant):
            return .constant(constant.anyValue)
        case .keyPath(let path):
            guard let slot = entity.slots.slotByName[path], let attribute = entity.slots.attributes[slot], !attribute.isTransient else {
                throw CoreDataError(.invalidFetchRequest, "A batch update value can read stored attributes of the same object only, not '\(path)'.", key: key)
            }
            return .attribute(slot: slot, attribute)
        case .function(let name, let arguments):
            if let op = Operator(rawValue: name), arguments.count == 2 {
                return .arithmetic(op, try value(of: arguments[0], in: entity, key: key), try value(of: arguments[1], in: entity, key: key))
            }
        default:
            break
        }
        throw CoreDataError(.invalidFetchRequest, "The batch update value '\(expression.format)' for '\(key)' is not supported: use constants, attributes and \(Operator.allCases.map(\.rawValue).joined(separator: ", ")).", key: key)
    }

    // MARK: - Computing in memory

    /// The new value of `assignment` for a row with `values`.
    static func newValue(of assignment: Assignment, values: ContiguousArray<Any?>) -> Any? {
        guard case .arithmetic = assignment.value else { return compute(assignment.value, values) }
        guard let computed = compute(assignment.value, values) else { return nil }
        switch assignment.attribute.attributeType {
        case .integer16, .integer32, .integer64:
            let integer = StoredNumber.integer(computed) ?? StoredNumber.double(computed).map(Self.truncated)
            return integer.flatMap { assignment.attribute.canonicalValue($0) }
        case .double, .float:
            return StoredNumber.double(computed).flatMap { assignment.attribute.canonicalValue($0) }
        default:
            return assignment.attribute.canonicalValue(computed)
        }
    }

    private static func truncated(_ double: Double) -> Int64 {
        guard double.isFinite else { return 0 }
        if double >= 9.223372036854775807e18 { return .max }
        if double <= -9.223372036854775808e18 { return .min }
        return Int64(double.rounded(.towardZero))
    }

    private static func compute(_ value: Value, _ values: ContiguousArray<Any?>) -> Any? {
        switch value {
        case .constant(let constant): return constant
        case .attribute(let slot, _): return values[slot]
        case .arithmetic(let op, let left, let right):
            guard let lhs = compute(left, values), let rhs = compute(right, values) else { return nil }
            if op != .divide, let a = StoredNumber.integer(lhs), let b = StoredNumber.integer(rhs) {
                let (result, overflow): (Int64, Bool)
                switch op {
                case .add: (result, overflow) = a.addingReportingOverflow(b)
                case .subtract: (result, overflow) = a.subtractingReportingOverflow(b)
                default: (result, overflow) = a.multipliedReportingOverflow(by: b)
                }
                if !overflow { return result }
            }
            guard let a = StoredNumber.double(lhs), let b = StoredNumber.double(rhs) else { return nil }
            switch op {
            case .add: return a + b
            case .subtract: return a - b
            case .multiply: return a * b
            case .divide: return b == 0 ? nil : a / b
            }
        }
    }
}

extension CoreDataError {
    /// The error with `key` set.
    func named(_ key: String) -> CoreDataError {
        var error = self
        error.key = key
        return error
    }
}
