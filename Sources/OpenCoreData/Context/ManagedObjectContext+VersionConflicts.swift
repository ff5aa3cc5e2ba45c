import Foundation

/// The built-in merge policies' resolution of one row changed in the store since the
/// context read it (see `MergePolicy.resolve(optimisticLockingConflicts:in:)` for the
/// rules). Each changes the context's object, and keeps the other side of every
/// relationship it changes in step on the loaded objects, so that the next write is
/// based on the store's current version of the row.
extension ManagedObjectContext {
    typealias PolicyType = MergePolicy.MergePolicyType

    func resolve(_ conflict: MergeConflict, by type: PolicyType) throws {
        let id = conflict.sourceObjectID
        guard let object = registeredObject(for: id), object.context === self else { return }
        let stored: RowSnapshot?
        if let known = conflictingRows[id] { stored = known } else { stored = try parentStore.snapshot(for: id) }
        let keepsStore = type == .mergeByPropertyStoreTrumpMergePolicyType || type == .rollbackMergePolicyType
        switch (object.lifecycle, stored) {
        case (.deleted, nil):
            rowIsGone(object)
        case (.deleted, let row?):
            if keepsStore { undoDelete(object, storedAs: row) } else { try rebaseDeletion(object, on: row) }
        case (.saved, nil):
            if type == .overwriteMergePolicyType, let objects = try reinsertion(of: object) {
                for object in objects { object.becomeReinserted() }
            } else {
                rowIsGone(object)
            }
        case (.saved, let row?):
            try rebase(object, on: row, by: type)
        case (.inserted, let row?) where !object.objectID.isTemporaryID:
            // Re-inserted here while another context wrote the row again: written over it.
            object.becomeSaved(basedOn: row)
            try rebase(object, on: row, by: type)
        case (.inserted, _), (.discarded, _):
            return
        }
    }

    /// What `.overwrite` writes again for `object`, whose row was deleted elsewhere: the
    /// object as this context holds it, and, in turn, each object it points at (to-one)
    /// whose row is gone too, so that nothing written points at a missing row. Nil when
    /// one of them was never read here (its values are unknown): the delete then stands.
    private func reinsertion(of object: ManagedObject) throws -> [ManagedObject]? {
        var objects: [ManagedObject] = []
        var seen: Set<ManagedObjectID> = []
        var pending = [object]
        while let next = pending.popLast() {
            guard seen.insert(next.objectID).inserted else { continue }
            if next.faulted {
                guard next.committed != nil else { return nil }
                next.willAccessValues()
            }
            guard !next.isInaccessible else { return nil }
            objects.append(next)
            for slot in next.slots.toOneSlots {
                guard let id = next.values[slot].objectID, !seen.contains(id),
                      try parentStore.snapshot(for: id) == nil else { continue }
                guard let target = registeredObject(for: id), target.context === self else { return nil }
                switch target.lifecycle {
                case .saved: pending.append(target)
                case .inserted: continue
                case .deleted, .discarded: return nil
                }
            }
        }
        return objects
    }

    // MARK: - A changed object

    /// The object's changes merged with the stored `row` by `type`'s rule.
    private func rebase(_ object: ManagedObject, on row: RowSnapshot, by type: PolicyType) throws {
        let slots = object.slots!
        let read = object.committed
        var target = object.values
        var changed = SlotSet()
        for slot in slots.storedSlots {
            let mine = object.values[slot], theirs = row.values[slot]
            let changedHere = object.changedSlots.contains(slot)
            let keepsMine = switch type {
            case .mergeByPropertyObjectTrumpMergePolicyType: changedHere
            case .mergeByPropertyStoreTrumpMergePolicyType: changedHere && read?.values[slot] == theirs
            case .overwriteMergePolicyType: true
            default: false
            }
            target[slot] = keepsMine ? mine : theirs
            if type == .overwriteMergePolicyType || target[slot] != theirs { changed.insert(slot) }
        }
        // Unsaved transient changes stay.
        for slot in object.changedSlots where !slots.isStored[slot] && slots.relationships[slot] == nil { changed.insert(slot) }

        var relations: [Int: (members: RelatedObjects, stored: RelatedObjects)] = [:]
        for slot in slots.toManySlots {
            guard let current = object.toMany[slot], let relationship = slots.relationships[slot] else { continue }
            let stored = RelatedObjects(try parentStore.relatedIDs(of: object.objectID, relationship: relationship))
            let changedHere = object.changedSlots.contains(slot)
            let members: RelatedObjects
            if !changedHere {
                members = stored
            } else if relationship.isManyToMany && type == .overwriteMergePolicyType {
                members = current
            } else if relationship.isManyToMany && type == .rollbackMergePolicyType {
                members = stored
            } else {
                // One-to-many members are decided by the members' own rows (their
                // to-one), so the edits made here stand under every policy.
                members = membersAsWritten(current.replaying(since: object.toManyBase[slot] ?? RelatedObjects(), on: stored),
                                           of: object, relationship, candidates: current.ordered + stored.ordered, by: type)
            }
            relations[slot] = (members, stored)
            let differs = relationship.isOrdered ? members.ordered != stored.ordered : members.members != stored.members
            if differs || (changedHere && type == .overwriteMergePolicyType) { changed.insert(slot) }
        }

        for slot in slots.toOneSlots where target[slot] != object.values[slot] {
            guard let relationship = slots.relationships[slot], let inverse = relationship.inverseRelationship else { continue }
            if let old = object.values[slot].objectID, let holder = loadedObject(old, besides: object) {
                holder.primitiveUnlink(object, via: inverse)
            }
            if let new = target[slot].objectID, let holder = loadedObject(new, besides: object) {
                holder.link(object, via: inverse, inverseOf: relationship)
            }
        }
        for (slot, relation) in relations {
            guard let current = object.toMany[slot], let relationship = slots.relationships[slot],
                  let inverse = relationship.inverseRelationship else { continue }
            // A member whose own row is in conflict decides its to-one side when it is
            // rebased itself (before or after this object): left alone here.
            let decidesItself = { (id: ManagedObjectID) in !inverse.isToMany && self.conflictingRows.keys.contains(id) }
            for id in current.ordered where !relation.members.contains(id) && !decidesItself(id) {
                loadedObject(id, besides: object)?.primitiveUnlink(object, via: inverse)
            }
            for id in relation.members.ordered where !current.contains(id) && !decidesItself(id) {
                loadedObject(id, besides: object)?.link(object, via: inverse, inverseOf: relationship)
            }
        }
        object.rebase(on: row, values: target, changed: changed, relations: relations)
    }

    /// `members` of `owner`'s one-to-many `relationship`, corrected by the members this
    /// save writes: an object whose to-one side this save writes (changed here, or, under
    /// `.overwrite`, any object it writes whole) is a member exactly when that to-one
    /// points at `owner` — the row decides, so both sides agree once written.
    private func membersAsWritten(_ members: RelatedObjects, of owner: ManagedObject, _ relationship: RelationshipDescription,
                                  candidates: [ManagedObjectID], by type: PolicyType) -> RelatedObjects {
        guard let inverse = relationship.inverseRelationship, !inverse.isToMany else { return members }
        var result = members
        var seen: Set<ManagedObjectID> = []
        for id in candidates where seen.insert(id).inserted {
            guard let member = registeredObject(for: id), member.context === self, !member.faulted, !member.isInaccessible,
                  let slot = member.slots.slotByName[inverse.name] else { continue }
            let writesToOne = switch member.lifecycle {
            case .inserted: true
            case .saved: member.changedSlots.contains(slot) || (type == .overwriteMergePolicyType && !member.changedSlots.isEmpty)
            case .deleted, .discarded: false
            }
            guard writesToOne else { continue }
            let pointsHere = member.values[slot].objectID == owner.objectID
            if pointsHere && !result.contains(id) { result.insert(id) } else if !pointsHere && result.contains(id) { result.remove(id) }
        }
        return result
    }

    // MARK: - A deleted object

    /// The delete is dropped: the object reads as the stored `row` again, and so do the
    /// objects its delete cascaded to; the objects it was related to hold it again.
    private func undoDelete(_ object: ManagedObject, storedAs row: RowSnapshot) {
        let slots = object.slots!
        let membersWhenDeleted = object.toMany
        object.undoDeletion(as: row)
        for slot in slots.toOneSlots {
            guard let relationship = slots.relationships[slot], let inverse = relationship.inverseRelationship,
                  let id = row.values[slot].objectID, let holder = loadedObject(id, besides: object) else { continue }
            holder.link(object, via: inverse, inverseOf: relationship)
        }
        for (slot, members) in membersWhenDeleted {
            guard let relationship = slots.relationships[slot], let inverse = relationship.inverseRelationship else { continue }
            for id in members.ordered {
                guard let member = registeredObject(for: id), member !== object, !member.isInaccessible else { continue }
                if member.lifecycle == .deleted, relationship.deleteRule == .cascade, let stored = member.committed {
                    undoDelete(member, storedAs: stored)
                } else if !member.faulted, member.lifecycle != .deleted {
                    member.link(object, via: inverse, inverseOf: relationship)
                }
            }
        }
    }

    /// The delete stands, based on the stored `row`; members the store added to its
    /// to-many relationships since it was read get its delete rules too.
    private func rebaseDeletion(_ object: ManagedObject, on row: RowSnapshot) throws {
        let slots = object.slots!
        var relations: [Int: RelatedObjects] = [:]
        var added: [(RelationshipDescription, [ManagedObjectID])] = []
        for slot in slots.toManySlots {
            guard let relationship = slots.relationships[slot] else { continue }
            let current = object.toMany[slot] ?? RelatedObjects()
            let new = try parentStore.relatedIDs(of: object.objectID, relationship: relationship).filter { !current.contains($0) }
            guard !new.isEmpty else { continue }
            relations[slot] = RelatedObjects(current.ordered + new)
            added.append((relationship, new))
        }
        object.rebaseDeletion(on: row, relations: relations)
        for (relationship, ids) in added {
            guard relationship.deleteRule == .cascade || relationship.deleteRule == .nullify else { continue }
            for id in ids {
                let member = self.object(with: id)
                guard !member.isInaccessible else { continue }
                if relationship.deleteRule == .cascade, !member.isPendingDelete { delete(member) }
                if let inverse = relationship.inverseRelationship { member.primitiveUnlink(object, via: inverse) }
            }
        }
    }

    /// The row is gone from the store: the object reads as deleted and leaves the
    /// context, and loaded objects drop their references to it. Its delete stands, so
    /// what this context added to its cascading relationships since (a child inserted
    /// under it, unknown to the context that deleted it) is deleted with it, as the rule
    /// would have done had the deleting context known it — not left behind with a
    /// nullified relationship.
    private func rowIsGone(_ object: ManagedObject) {
        let id = object.objectID
        let followers = cascadeFollowers(of: object)
        object.becomeDeletedElsewhere()
        for reference in Array(registry.values) { reference.takeUnretainedValue().dropReferences(to: [id]) }
        guard !followers.isEmpty else { return }
        for follower in followers where !follower.isPendingDelete { delete(follower) }
        applyPendingDeleteRules()
    }

    /// The live objects of this context that `object`'s loaded cascading relationships hold.
    private func cascadeFollowers(of object: ManagedObject) -> [ManagedObject] {
        guard !object.faulted, object.lifecycle != .deleted else { return [] }
        let slots = object.entity.slots
        var ids: [ManagedObjectID] = []
        for slot in slots.toManySlots where slots.relationships[slot]?.deleteRule == .cascade {
            ids += object.toMany[slot]?.ordered ?? []
        }
        for slot in slots.toOneSlots where slots.relationships[slot]?.deleteRule == .cascade {
            if let target = object.values[slot].objectID { ids.append(target) }
        }
        return ids.compactMap { registeredObject(for: $0) }.filter { $0.context === self && !$0.isInaccessible }
    }
}
