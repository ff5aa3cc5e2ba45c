import Foundation

extension ManagedObject {
    /// Fails when a deny-rule relationship still holds objects that are not deleted too.
    func validateDenyRules() throws {
        var errors: [CoreDataError] = []
        for slot in slots!.toOneSlots + slots!.toManySlots {
            let relationship = slots!.relationships[slot]!
            guard relationship.deleteRule == .deny else { continue }
            let related = relatedIDs(atSlot: slot, relationship).filter { id in
                !(context?.registeredObject(for: id)?.isPendingDelete ?? false)
            }
            if !related.isEmpty {
                errors.append(CoreDataError(.validationRelationshipDeniedDelete,
                    "\(entity.name).\(relationship.name) denies deleting this object while it holds \(related.count) object(s).",
                    objectID: objectID, key: relationship.name))
            }
        }
        try CoreDataError.throwCombined(errors)
    }

    /// Validates every attribute and relationship count.
    public func validatePropertyValues() throws {
        willAccessValues()
        var errors: [CoreDataError] = []
        let slots = slots!
        // Values were type-checked when set; only rules, wrong types and missing
        // mandatory values need a closer look: an object with none skips the pass.
        var toCheck = slotsToValidate
        for slot in slots.alwaysValidatedSlots { toCheck.insert(slot) }
        for slot in slots.mandatoryAttributeSlots where values[slot].isNull { toCheck.insert(slot) }
        if !toCheck.isEmpty {
            for slot in toCheck {
                guard let attribute = slots.attributes[slot] else { continue }
                for var error in attribute.validationErrors(for: values[slot].any) {
                    error.objectID = objectID
                    errors.append(error)
                }
            }
        }
        for slot in slots.toOneSlots {
            let relationship = slots.relationships[slot]!
            if case .object(let id) = values[slot], id.entity === relationship.destinationEntity {
                continue
            } else if let value = values[slot].any {
                if let error = wrongRelationshipValue(value, relationship) { errors.append(error) }
            } else if !relationship.isOptional {
                errors.append(CoreDataError(.validationMissingMandatoryProperty,
                    "\(entity.name).\(relationship.name) is required.", objectID: objectID, key: relationship.name))
            }
        }
        for slot in slots.toManySlots {
            let relationship = slots.relationships[slot]!
            if let value = values[slot].any {
                // A value `setValue` could not take: kept in the slot, the relationship unchanged.
                errors.append(wrongRelationshipValue(value, relationship) ?? CoreDataError(.validationWrongType,
                    "\(entity.name).\(relationship.name) is to-many: set it to a set or array of \(relationship.destinationEntity?.name ?? "") objects.",
                    objectID: objectID, key: relationship.name))
                continue
            }
            let minimum = max(relationship.minCount, relationship.isOptional ? 0 : 1)
            // Without count rules there is nothing to check (and nothing to load).
            guard minimum > 0 || relationship.maxCount > 0 else { continue }
            let count = relatedObjectIDs(atSlot: slot).count
            if count < minimum && !(relationship.isOptional && count == 0) {
                errors.append(CoreDataError(.validationRelationshipLacksMinimumCount,
                    "\(entity.name).\(relationship.name) has \(count) object(s), at least \(minimum) required.",
                    objectID: objectID, key: relationship.name))
            }
            if relationship.maxCount > 0 && count > relationship.maxCount {
                errors.append(CoreDataError(.validationRelationshipExceedsMaximumCount,
                    "\(entity.name).\(relationship.name) has \(count) object(s), at most \(relationship.maxCount) allowed.",
                    objectID: objectID, key: relationship.name))
            }
        }
        try CoreDataError.throwCombined(errors)
    }

    /// The error for a value a relationship cannot hold: not an object ID (or for a
    /// to-many, not a collection of objects), or an object of another entity.
    private func wrongRelationshipValue(_ value: Any, _ relationship: RelationshipDescription) -> CoreDataError? {
        let destination = relationship.destinationEntity?.name ?? "?"
        let given: String
        if let id = value as? ManagedObjectID, !relationship.isToMany {
            guard let entity = relationship.destinationEntity, !id.entity.isKindOf(entity: entity) else { return nil }
            given = "a \(id.entity.name)"
        } else if let object = value as? ManagedObject {
            given = "a \(object.entity.name)"
        } else if let objects = Self.relatedObjects(in: value), let other = objects.first(where: { object in
            relationship.destinationEntity.map { !object.entity.isKindOf(entity: $0) } ?? false
        }) {
            given = "a collection holding a \(other.entity.name)"
        } else {
            given = "a value of type \(type(of: value))"
        }
        let expected = relationship.isToMany ? "a set or array of \(destination) objects" : "a \(destination) or nil"
        return CoreDataError(.validationWrongType,
            "\(entity.name).\(relationship.name) holds \(expected), not \(given).",
            objectID: objectID, key: relationship.name)
    }

    private func relatedIDs(atSlot slot: Int, _ relationship: RelationshipDescription) -> [ManagedObjectID] {
        if relationship.isToMany { return relatedObjectIDs(atSlot: slot).ordered }
        return toOneID(atSlot: slot).map { [$0] } ?? []
    }
}

extension CoreDataError {
    /// Throws nothing for no errors, the error itself for one, and a
    /// `.validationMultipleErrors` error carrying all of them for several.
    static func throwCombined(_ errors: [CoreDataError]) throws {
        let flat = errors.flatMap { $0.code == .validationMultipleErrors ? $0.underlyingErrors : [$0] }
        if flat.isEmpty { return }
        if flat.count == 1 { throw flat[0] }
        throw CoreDataError(.validationMultipleErrors,
            "\(flat.count) validation errors: " + flat.map(\.message).joined(separator: " "),
            underlyingErrors: flat)
    }
}
