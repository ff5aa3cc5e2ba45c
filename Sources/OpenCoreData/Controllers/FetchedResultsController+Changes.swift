import Foundation

extension FetchedResultsController {
    // MARK: - What an event may have changed

    /// The objects `changes` lists that may have entered, left, moved in or changed in
    /// the results: every inserted, deleted, invalidated and refreshed object of the
    /// fetched entities, and every updated one (moving only when a key the predicate,
    /// sort or sections read changed); with `observesRelatedObjects`, the objects whose
    /// key paths reach a changed object.
    func candidates(for changes: ChangeSet) -> [FetchedResultsContent<ResultType>.Candidate] {
        guard var plan, let content else { return [] }
        var candidates: [FetchedResultsContent<ResultType>.Candidate] = []
        var positions: [ObjectIdentifier: Int] = [:]
        let numbers = plan.query.entityNumbers
        func add(_ object: ManagedObject, mayMove: Bool) {
            let id = ObjectIdentifier(object)
            if let position = positions[id] {
                if mayMove { candidates[position].mayMove = true }
                return
            }
            positions[id] = candidates.count
            candidates.append(.init(object: object, mayMove: mayMove, reidentified: content.isReidentified(object)))
        }
        for list in [changes.inserted, changes.deleted, changes.invalidated, changes.refreshed] {
            for object in list where numbers.contains(object.entity.slots.number) || content.members[ObjectIdentifier(object)] != nil {
                add(object, mayMove: true)
            }
        }
        for (index, object) in changes.updated.enumerated() where numbers.contains(object.entity.slots.number) {
            add(object, mayMove: plan.mayMove(object, changed: changes.changedSlots[index]))
        }
        self.plan = plan
        if observesRelatedObjects && !plan.relatedPaths.isEmpty {
            for object in relatedObjects(affectedBy: changes, plan: plan) where numbers.contains(object.entity.slots.number) {
                add(object, mayMove: true)
            }
        }
        return candidates
    }

    /// The objects of the fetched entities whose related key paths reach an object
    /// `changes` updated or refreshed, at a key the path reads there.
    private func relatedObjects(affectedBy changes: ChangeSet, plan: FetchedResultsPlan) -> [ManagedObject] {
        var found: [ManagedObject] = []
        var everything = false
        func visit(_ object: ManagedObject, keys: Set<String>?) {
            for path in plan.relatedPaths {
                for depth in 1 ... path.relationships.count {
                    guard let destination = path.relationships[depth - 1].destinationEntity,
                          object.entity.isKindOf(entity: destination),
                          let key = path.keys[depth - 1], keys?.contains(key) ?? true else { continue }
                    var level = [object]
                    for step in stride(from: depth - 1, through: 0, by: -1) {
                        guard let inverse = path.relationships[step].inverseRelationship else {
                            everything = true
                            level = []
                            break
                        }
                        level = level.flatMap { Self.related($0, by: inverse.name) }
                    }
                    found += level
                }
            }
        }
        for (index, object) in changes.updated.enumerated() { visit(object, keys: changes.changedKeys(at: index)) }
        for object in changes.refreshed { visit(object, keys: nil) }
        if everything { found += (content?.objects ?? []) as [ManagedObject] }
        return found
    }

    /// The objects `object` holds in relationship `key` (none when it is gone).
    private static func related(_ object: ManagedObject, by key: String) -> [ManagedObject] {
        guard !object.isDeleted else { return [] }
        switch object.value(forKey: key) {
        case let one as ManagedObject: return [one]
        case let set as Set<ManagedObject>: return Array(set)
        case let array as [ManagedObject]: return array
        default: return []
        }
    }

    // MARK: - Telling the delegate

    /// Reports `batch` in the form the delegate asked for.
    func deliver(_ batch: FetchedResultsBatch<ResultType>) {
        guard !batch.isEmpty, let delegate, let content else { return }
        switch delegate.changeReporting {
        case .difference:
            let difference = batch.difference
            guard !difference.isEmpty else { return }
            delegate.controller(self, didChangeContentWith: difference)
        case .snapshot:
            if let snapshot { delegate.controller(self, didChangeContentWithSnapshot: snapshot) }
        case .perChange:
            delegate.controllerWillChangeContent(self)
            for (index, name) in batch.deletedSections {
                let info = FetchedResultsSectionInfo<ResultType>(name: name, indexTitle: indexTitle(name), objectsSlice: [])
                delegate.controller(self, didChange: info, atSectionIndex: index, for: .delete)
            }
            for (index, _) in batch.insertedSections {
                delegate.controller(self, didChange: sectionInfo(at: index, in: content), atSectionIndex: index, for: .insert)
            }
            let moved = Dictionary(batch.inserted.compactMap { entry in entry.oldIndex.map { ($0, entry) } }, uniquingKeysWith: { first, _ in first })
            for entry in batch.removed where moved[entry.index] == nil {
                delegate.controller(self, didChange: entry.object, at: entry.indexPath, for: .delete, newIndexPath: nil)
            }
            for entry in batch.inserted where entry.oldIndex == nil {
                delegate.controller(self, didChange: entry.object, at: nil, for: .insert, newIndexPath: entry.indexPath)
            }
            for entry in batch.removed {
                guard let destination = moved[entry.index] else { continue }
                delegate.controller(self, didChange: destination.object, at: entry.indexPath, for: .move, newIndexPath: destination.indexPath)
            }
            for entry in batch.updated {
                delegate.controller(self, didChange: entry.object, at: entry.indexPath, for: .update, newIndexPath: nil)
            }
            delegate.controllerDidChangeContent(self)
        }
    }
}
