import Foundation

/// A `BatchUpdateRequest` resolved against the model: the rows to change and, per
/// attribute, how its new value is computed. Both stores compute the same values:
/// integer arithmetic stays integer (a double on overflow), `divide:by:` gives a double,
/// division by zero and nil operands give nil, and a computed or copied value is converted
/// to the attribute's type (integers truncate toward zero, as SQLite's `CAST` does).
/// Arithmetic needs numeric operands and a numeric attribute, a copy an attribute of the
/// same type (or number to number); a value that does not fit an integer attribute fails
/// the whole update with `.validationNumberTooLarge` / `.validationNumberTooSmall`, and a
/// nil (constant, computed or copied) for a required attribute with
/// `.validationMissingMandatoryProperty`.
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
            try Self.checkTypes(of: resolved, for: attribute)
            return Assignment(slot: slot, attribute: attribute, value: try Self.checked(resolved, for: attribute))
        }
    }

    /// A whole-value constant converted to the attribute's type, or a typed error.
    private static func checked(_ value: Value, for attribute: AttributeDescription) throws -> Value {
        guard case .constant(let constant) = value else { return value }
        let (converted, isCanonical) = attribute.canonicalize(constant)
        guard isCanonical, !attribute.isNaN(converted) else { throw attribute.wrongTypeError(constant as Any).named(attribute.name) }
        if converted == nil && !attribute.isOptional { throw missingMandatoryError(for: attribute) }
        return .constant(converted)
    }

    /// The error for nil in a required attribute: a nil constant, or a value computed or
    /// copied as nil (division by zero, a nil operand, NaN) for some row.
    static func missingMandatoryError(for attribute: AttributeDescription) -> CoreDataError {
        CoreDataError(.validationMissingMandatoryProperty, "A batch update cannot set the required attribute \(attribute.entity?.name ?? "").\(attribute.name) to nil.", key: attribute.name)
    }

    /// Computed values need a numeric attribute and numeric operands; an attribute is
    /// copied only into one of the same type, or number to number.
    private static func checkTypes(of value: Value, for attribute: AttributeDescription) throws {
        func wrongType(_ detail: String) -> CoreDataError {
            CoreDataError(.validationWrongType, "A batch update cannot set \(attribute.entity?.name ?? "").\(attribute.name) (\(attribute.attributeType.displayName)) to \(detail).", key: attribute.name)
        }
        switch value {
        case .constant:
            return
        case .attribute(_, let source):
            guard source.attributeType == attribute.attributeType || (source.attributeType.isNumeric && attribute.attributeType.isNumeric) else {
                throw wrongType("the value of \(source.name) (\(source.attributeType.displayName))")
            }
        case .arithmetic:
            guard attribute.attributeType.isNumeric else { throw wrongType("a computed number") }
            func checkOperands(_ value: Value) throws {
                switch value {
                case .constant(let constant):
                    guard let constant else { return }
                    guard StoredNumber.integer(constant) != nil || (StoredNumber.double(constant) != nil && !(constant is Date)) else {
                        throw wrongType("a computation with \(type(of: constant)) \(constant)")
                    }
                case .attribute(_, let source):
                    guard source.attributeType.isNumeric else {
                        throw wrongType("a computation with \(source.name) (\(source.attributeType.displayName))")
                    }
                case .arithmetic(_, let left, let right):
                    try checkOperands(left)
                    try checkOperands(right)
                }
            }
            try checkOperands(value)
        }
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

    /// The new value of `assignment` for a row with `values`: a computed or copied value
    /// converted to the attribute's type, integers truncated toward zero.
    ///
    /// - Throws: `.validationNumberTooLarge` / `.validationNumberTooSmall` when the value
    ///   does not fit an integer attribute (as `integerRangeError` for the SQLite store);
    ///   `.validationMissingMandatoryProperty` when it is nil for a required attribute.
    static func newValue(of assignment: Assignment, values: SlotValues) throws -> Any? {
        if case .constant(let constant) = assignment.value { return constant }
        let value = try converted(compute(assignment.value, values), for: assignment.attribute)
        if value == nil && !assignment.attribute.isOptional { throw missingMandatoryError(for: assignment.attribute) }
        return value
    }

    /// A computed or copied value in the attribute's type; nil for nil and NaN.
    private static func converted(_ computed: Any?, for attribute: AttributeDescription) throws -> Any? {
        guard let computed else { return nil }
        switch attribute.attributeType {
        case .integer16, .integer32, .integer64:
            if let integer = StoredNumber.integer(computed) {
                guard let value = attribute.exactInteger(integer) else {
                    throw integerRangeError(for: attribute, tooLarge: integer > 0)
                }
                return value
            }
            guard let double = StoredNumber.double(computed), !double.isNaN else { return nil }
            try checkRange(of: double, for: attribute)
            return attribute.exactInteger(Int64(double.rounded(.towardZero)))
        case .double, .float:
            return StoredNumber.double(computed).flatMap { $0.isNaN ? nil : attribute.canonicalValue($0) }
        default:
            if let double = computed as? Double, double.isNaN { return nil }
            return attribute.canonicalValue(computed)
        }
    }

    /// Throws unless `double`, truncated toward zero, fits the integer `attribute`.
    static func checkRange(of double: Double, for attribute: AttributeDescription) throws {
        let range = attribute.integerRange
        guard double < Double(range.upperBound) + 1 else { throw integerRangeError(for: attribute, tooLarge: true) }
        guard double > Double(range.lowerBound) - 1 || double == Double(range.lowerBound) else {
            throw integerRangeError(for: attribute, tooLarge: false)
        }
    }

    /// The error for a computed value outside an integer attribute's range.
    static func integerRangeError(for attribute: AttributeDescription, tooLarge: Bool) -> CoreDataError {
        CoreDataError(tooLarge ? .validationNumberTooLarge : .validationNumberTooSmall,
                      "A batch update computes a value too \(tooLarge ? "large" : "small") for \(attribute.entity?.name ?? "").\(attribute.name) (\(attribute.attributeType.displayName)).",
                      key: attribute.name)
    }

    private static func compute(_ value: Value, _ values: SlotValues) -> Any? {
        switch value {
        case .constant(let constant): return constant
        case .attribute(let slot, _): return values[slot].any
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

extension AttributeDescription {
    /// The values an integer attribute holds.
    var integerRange: ClosedRange<Int64> {
        switch attributeType {
        case .integer16: return Int64(Int16.min)...Int64(Int16.max)
        case .integer32: return Int64(Int32.min)...Int64(Int32.max)
        default: return Int64.min...Int64.max
        }
    }

    /// `value` in the integer attribute's Swift type, or nil when it does not fit.
    func exactInteger(_ value: Int64) -> Any? {
        switch attributeType {
        case .integer16: return Int16(exactly: value)
        case .integer32: return Int32(exactly: value)
        default: return value
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
