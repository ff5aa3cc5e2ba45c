import Foundation

/// Turns the columns of a fetched row into a `RowSnapshot`, by a plan built once per
/// entity: each stored slot, the column it is read from, and how to decode it.
struct SQLiteRowDecoder {
    enum Kind {
        case int16, int32, int64, boolean, double, float, string, date, data
        case converted(AttributeDescription)
        case toOne(EntityDescription)
        case toOneInHierarchy(entityColumn: Int32)
    }

    struct Step {
        let slot: Int
        let column: Int32
        let kind: Kind
    }

    let entity: EntityDescription
    let slotCount: Int
    let steps: [Step]

    /// - Parameter firstValueColumn: the result column of the table's first value column
    ///   (after `Z_PK`, `Z_ENT`, `Z_OPT`).
    init(entity: EntityDescription, schema: SQLiteSchema, firstValueColumn: Int32 = 3) {
        self.entity = entity
        let slots = entity.slots
        let mapping = schema.mapping(for: entity)
        slotCount = slots.properties.count
        var steps: [Step] = []
        for slot in slots.properties.indices {
            guard let column = mapping.valueColumn[slot] else { continue }
            let resultColumn = firstValueColumn + Int32(column)
            let kind: Kind
            if let relationship = slots.relationships[slot] {
                if let entityColumn = mapping.entityColumn[slot] {
                    kind = .toOneInHierarchy(entityColumn: firstValueColumn + Int32(entityColumn))
                } else {
                    kind = .toOne(relationship.destinationEntity!)
                }
            } else {
                let attribute = slots.attributes[slot]!
                switch attribute.attributeType {
                case .integer16: kind = .int16
                case .integer32: kind = .int32
                case .integer64: kind = .int64
                case .boolean: kind = .boolean
                case .double: kind = .double
                case .float: kind = .float
                case .string: kind = .string
                case .date: kind = .date
                case .binaryData: kind = .data
                default: kind = .converted(attribute)
                }
            }
            steps.append(Step(slot: slot, column: resultColumn, kind: kind))
        }
        self.steps = steps
    }

    /// Decodes the values of the current row of `statement`.
    func decode(_ statement: SQLiteStatement, store: SQLiteStore) throws -> RowSnapshot {
        var values = SlotValues(repeating: .null, count: slotCount)
        for step in steps where !statement.isNull(step.column) {
            let column = step.column
            switch step.kind {
            case .int16: values[step.slot] = .int16(Int16(truncatingIfNeeded: statement.int64(column)))
            case .int32: values[step.slot] = .int32(Int32(truncatingIfNeeded: statement.int64(column)))
            case .int64: values[step.slot] = .int64(statement.int64(column))
            case .boolean: values[step.slot] = .bool(statement.int64(column) != 0)
            case .double: values[step.slot] = .double(statement.double(column))
            case .float: values[step.slot] = .float(Float(statement.double(column)))
            case .string: values[step.slot] = .string(statement.text(column))
            case .date: values[step.slot] = .date(Date(timeIntervalSinceReferenceDate: statement.double(column)))
            case .data: values[step.slot] = .data(statement.data(column))
            case .converted(let attribute):
                values[step.slot] = SlotValue(try attribute.value(from: statement.value(at: column)))
            case .toOne(let destination):
                values[step.slot] = .object(store.objectID(for: destination, primaryKey: statement.int64(column)))
            case .toOneInHierarchy(let entityColumn):
                values[step.slot] = .object(try store.objectID(entityNumber: statement.int64(entityColumn), primaryKey: statement.int64(column)))
            }
        }
        return RowSnapshot(values: values, version: statement.int64(2))
    }
}
