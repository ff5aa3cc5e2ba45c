import Foundation

/// The rows of a `BatchInsertRequest`, as a save writes new objects: each object's values
/// by slot, starting from the attributes' defaults, each given value converted to its
/// attribute's type.
enum BatchInsertPlan {
    /// - Throws: `.invalidFetchRequest` for an unknown entity or key, or a relationship;
    ///   `.validationWrongType` for a value of the wrong type;
    ///   `.validationMissingMandatoryProperty` for a required attribute left nil.
    static func rows(for request: BatchInsertRequest, model: ManagedObjectModel) throws -> SaveRequest {
        guard let entity = model.layout.entitiesByName[request.entityName], !entity.isAbstract else {
            throw CoreDataError(.invalidFetchRequest, "A batch insert names entity '\(request.entityName)', which the model does not have (or is abstract).")
        }
        var save = SaveRequest()
        func add(_ dictionary: [String: Any]) throws {
            save.inserts.append(try row(dictionary, entity: entity))
        }
        if let objects = request.objectsToInsert {
            save.inserts.reserveCapacity(objects.count)
            for object in objects { try add(object) }
        } else if let handler = request.dictionaryHandler {
            while true {
                var dictionary: [String: Any] = [:]
                if handler(&dictionary) { break }
                try add(dictionary)
            }
        }
        return save
    }

    private static func row(_ dictionary: [String: Any], entity: EntityDescription) throws -> SaveRequest.Row {
        let slots = entity.slots
        var values = slots.defaultValues
        for (key, value) in dictionary {
            guard let slot = slots.slotByName[key] else {
                throw CoreDataError(.invalidFetchRequest, "A batch insert of \(entity.name) sets '\(key)', which is not one of its attributes.", key: key)
            }
            guard let attribute = slots.attributes[slot] else {
                throw CoreDataError(.invalidFetchRequest, "A batch insert cannot set the relationship \(entity.name).\(key); insert the objects, then relate them.", key: key)
            }
            let (converted, isCanonical) = attribute.canonicalize(value)
            guard isCanonical, !attribute.isNaN(converted) else { throw attribute.wrongTypeError(value).named(key) }
            values[slot] = SlotValue(converted)
        }
        for slot in slots.attributeSlots {
            guard let attribute = slots.attributes[slot], !attribute.isOptional, !attribute.isTransient, values[slot].isNull else { continue }
            throw CoreDataError(.validationMissingMandatoryProperty, "A batch insert of \(entity.name) leaves the required attribute '\(attribute.name)' without a value.", key: attribute.name)
        }
        return SaveRequest.Row(id: .makeTemporary(for: entity), values: values, changedSlots: SlotSet(), version: 0)
    }
}
