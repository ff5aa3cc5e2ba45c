import Foundation

extension ManagedObjectContext {
    /// The `.mergeConflict` error for rows a save found changed in the store: one
    /// `MergeConflict` per object, with its current, last-read and stored values.
    func mergeConflictError(_ conflicts: [StoreVersionConflict]) -> CoreDataError {
        let records = conflicts.map { conflict -> MergeConflict in
            let object = registeredObject(for: conflict.id)
            return MergeConflict(
                sourceObjectID: conflict.id,
                oldVersion: conflict.expectedVersion,
                newVersion: conflict.current?.version ?? 0,
                objectSnapshot: object.map { Self.namedValues($0.values, toMany: $0.toMany, entity: conflict.id.entity) } ?? [:],
                cachedSnapshot: object?.committed.map { Self.namedValues($0.values, toMany: [:], entity: conflict.id.entity) } ?? [:],
                persistedSnapshot: conflict.current.map { Self.namedValues($0.values, toMany: [:], entity: conflict.id.entity) })
        }
        return .mergeConflict(records)
    }

    /// Slot values as a dictionary by property name, in their `Sendable` form (a value
    /// with none, such as a transformable's object, as its description).
    static func namedValues(_ values: SlotValues, toMany: [Int: RelatedObjects], entity: EntityDescription) -> [String: CDValue] {
        var named: [String: CDValue] = [:]
        let slots = entity.slots
        for (slot, property) in slots.properties.enumerated() {
            if let related = toMany[slot] {
                named[property.name] = .array(related.ordered.map(CDValue.objectID))
            } else if slot < values.count, slots.relationships[slot]?.isToMany != true {
                let value = values[slot].any
                named[property.name] = CDValue(converting: value) ?? .string(String(describing: value ?? "nil"))
            }
        }
        return named
    }
}

extension CoreDataError {
    /// The `.mergeConflict` error for `records`: nothing was written.
    static func mergeConflict(_ records: [MergeConflict]) -> CoreDataError {
        let listed = records.prefix(5).map(\.description).joined(separator: "; ")
        var error = CoreDataError(.mergeConflict,
            "\(records.count) object(s) changed in the store since this context read them, so nothing was saved: \(listed)\(records.count > 5 ? "; …" : ""). Refresh them or roll back, then save again.",
            objectID: records.first?.sourceObjectID)
        error.conflicts = records
        return error
    }
}
