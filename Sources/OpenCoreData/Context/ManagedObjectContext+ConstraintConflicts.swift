import Foundation

/// Uniqueness constraints a save breaks: found once the store refused the write (so a
/// save that breaks none pays nothing), and resolved by the built-in merge policies
/// (see `MergePolicy.resolve(constraintConflicts:in:)` for the rules).
extension ManagedObjectContext {
    // MARK: - Finding the clashes

    /// Every group of objects the pending changes would leave with the same values for a
    /// uniqueness constraint: the context's inserted and changed objects (as they are
    /// now), and the stored rows this context does not change or delete.
    func constraintConflicts() throws -> [ConstraintConflict] {
        let pending = pendingObjects.filter { willBeSaved($0) && !$0.isPendingDelete }
        var constrained: [EntityDescription] = []
        var seen: Set<ObjectIdentifier> = []
        for object in pending {
            var entity: EntityDescription? = object.entity
            while let current = entity {
                if !current.uniquenessConstraints.isEmpty, seen.insert(ObjectIdentifier(current)).inserted { constrained.append(current) }
                entity = current.superentity
            }
        }
        var conflicts: [ConstraintConflict] = []
        for entity in constrained {
            let members = pending.filter { $0.entity.isKindOf(entity: entity) }
            for constraint in entity.uniquenessConstraints {
                for group in Self.groups(of: members, sharing: constraint) {
                    let rows = try storedRows(of: entity, sharing: constraint, with: group[0])
                    guard group.count + rows.count >= 2 else { continue }
                    conflicts.append(ConstraintConflict(
                        constraint: constraint,
                        constraintValues: Self.namedValues(group[0].values, toMany: [:], entity: group[0].entity).filter { constraint.contains($0.key) },
                        databaseObjectID: rows.first?.id,
                        databaseSnapshot: rows.first.flatMap { row in row.snapshot.map { Self.namedValues($0.values, toMany: [:], entity: row.id.entity) } },
                        conflictingObjectIDs: group.map(\.objectID),
                        conflictingSnapshots: group.map { object in object.committed.map { Self.namedValues($0.values, toMany: [:], entity: object.entity) } ?? [:] }))
                }
            }
        }
        return conflicts
    }

    /// `objects` grouped by their values for `constraint`, in the order of their first
    /// member; objects with a nil among them are left out (nil never clashes, as in a
    /// SQLite unique index).
    private static func groups(of objects: [ManagedObject], sharing constraint: [String]) -> [[ManagedObject]] {
        var groups: [[AnyHashable]: Int] = [:]
        var ordered: [[ManagedObject]] = []
        for object in objects {
            let values = constraint.map { name in object.entity.slots.slotByName[name].flatMap { object.values[$0].any } }
            guard values.allSatisfy({ $0 != nil }) else { continue }
            let key = values.map { ($0 as? AnyHashable) ?? AnyHashable(String(describing: $0!)) }
            if let index = groups[key] { ordered[index].append(object) } else {
                groups[key] = ordered.count
                ordered.append([object])
            }
        }
        return ordered
    }

    /// The stored rows of `entity` (and its sub-entities) with `object`'s values for
    /// `constraint`, but for objects this save changes or deletes.
    private func storedRows(of entity: EntityDescription, sharing constraint: [String], with object: ManagedObject) throws -> [FetchedRow] {
        let request = FetchRequest<ManagedObject>(entityName: entity.name)
        var arguments: [Any?] = []
        for name in constraint {
            arguments.append(name)
            arguments.append(object.entity.slots.slotByName[name].flatMap { object.values[$0].any })
        }
        request.predicate = try CDPredicate(format: constraint.map { _ in "%K == %@" }.joined(separator: " AND "), argumentArray: arguments)
        let rows = try parentStore.fetch(try StoreFetch(request, model: parentStore.managedObjectModel))
        return rows.filter { row in registeredObject(for: row.id).map { !$0.hasPendingChange } ?? true }
    }

    // MARK: - Resolving a clash

    /// One clash resolved by `type`'s rule: one object survives, the others are deleted
    /// (their to-many relationships moved to the survivor first) or, under rollback,
    /// changed objects are refreshed.
    func resolve(_ conflict: ConstraintConflict, by type: PolicyType) throws {
        let objects = conflict.conflictingObjectIDs.compactMap(registeredObject(for:))
            .filter { $0.context === self && willBeSaved($0) && !$0.isPendingDelete }
        guard let last = objects.last else { return }
        let stored = conflict.databaseObjectID.map { self.object(with: $0) }.flatMap { $0.isDeleted ? nil : $0 }
        let survivor: ManagedObject = if type == .overwriteMergePolicyType {
            objects.last(where: \.isPendingInsert) ?? last
        } else {
            stored ?? objects.first(where: { !$0.isPendingInsert }) ?? objects[0]
        }
        if type == .mergeByPropertyObjectTrumpMergePolicyType, let source = objects.last(where: { $0 !== survivor }) {
            copyValues(of: source, onto: survivor)
        }
        for other in ([stored].compactMap { $0 } + objects) where other !== survivor {
            if type == .rollbackMergePolicyType, !other.isPendingInsert {
                refresh(other, mergeChanges: false)
                continue
            }
            moveToManyMembers(of: other, to: survivor)
            delete(other)
        }
    }

    /// `target` takes `source`'s attribute values and to-one relationships (nils
    /// included), for the properties the two entities share.
    private func copyValues(of source: ManagedObject, onto target: ManagedObject) {
        for property in target.entity.properties {
            guard source.entity.slots.slotByName[property.name] != nil else { continue }
            if let relationship = property as? RelationshipDescription, relationship.isToMany { continue }
            target.setValue(source.value(forKey: property.name), forKey: property.name)
        }
    }

    /// The members of `source`'s to-many relationships join `target`'s relationship of
    /// the same name, so that the objects that pointed at `source` point at `target`.
    private func moveToManyMembers(of source: ManagedObject, to target: ManagedObject) {
        let slots = source.slots!
        for slot in slots.toManySlots {
            guard let relationship = slots.relationships[slot],
                  let targetSlot = target.entity.slots.slotByName[relationship.name],
                  let targetRelationship = target.entity.slots.relationships[targetSlot], targetRelationship.isToMany else { continue }
            for id in source.relatedObjectIDs(atSlot: slot).ordered {
                let member = object(with: id)
                guard !member.isDeleted, member !== target else { continue }
                target.addRelated(member, atSlot: targetSlot, targetRelationship)
            }
        }
    }
}
