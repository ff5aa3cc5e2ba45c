import Foundation

/// Core Data's delete rules for batch deletes, applied in the store: cascade rules add
/// the related objects to the deletion (recursively), and a deny rule whose relationship
/// still holds an object outside the deletion refuses the whole request. (Nullify and
/// no-action relationships are cleared by the store's delete, so nothing dangles.)
/// Only relationships with those two rules cost a read: one per relationship and step.
enum BatchDeleteRules {
    /// Whether no relationship of the model starts or ends in `entity`'s hierarchy: then a
    /// batch delete has no rule to apply and no reference to clear, and the store may
    /// delete the matching rows without reading them.
    static func touchesNoRelationship(_ entity: EntityDescription) -> Bool {
        let root = entity.rootEntity
        return entity.model?.entities.allSatisfy { other in
            other.properties.allSatisfy { property in
                guard let relationship = property as? RelationshipDescription else { return true }
                return other.rootEntity !== root && relationship.destinationEntity?.rootEntity !== root
            }
        } ?? false
    }

    /// `ids` followed by every object their cascade rules reach, without duplicates.
    ///
    /// - Throws: `.validationRelationshipDeniedDelete` naming the first denying object.
    static func closure(of ids: [ManagedObjectID], in store: PersistentStore) throws -> [ManagedObjectID] {
        var all = Set<ManagedObjectID>()
        var ordered: [ManagedObjectID] = []
        for id in ids where !id.isTemporaryID && all.insert(id).inserted { ordered.append(id) }
        var frontier = ordered
        var denials: [(owner: ManagedObjectID, relationship: RelationshipDescription, target: ManagedObjectID)] = []
        while !frontier.isEmpty {
            var next: [ManagedObjectID] = []
            for group in Dictionary(grouping: frontier, by: { ObjectIdentifier($0.entity) }).values {
                for (owner, relationship, target) in try ruledLinks(of: group, in: store) {
                    if relationship.deleteRule == .deny {
                        denials.append((owner, relationship, target))
                    } else if all.insert(target).inserted {
                        next.append(target)
                        ordered.append(target)
                    }
                }
            }
            frontier = next
        }
        for denial in denials where !all.contains(denial.target) {
            throw CoreDataError(.validationRelationshipDeniedDelete,
                "A batch delete of \(denial.owner.entity.name) \(denial.owner) is denied: its relationship '\(denial.relationship.name)' still holds \(denial.target.entity.name) \(denial.target).",
                objectID: denial.owner, key: denial.relationship.name)
        }
        return ordered
    }

    /// The links of `group` (objects of one entity) through cascade and deny relationships.
    private static func ruledLinks(of group: [ManagedObjectID], in store: PersistentStore) throws -> [(ManagedObjectID, RelationshipDescription, ManagedObjectID)] {
        let slots = group[0].entity.slots
        var links: [(ManagedObjectID, RelationshipDescription, ManagedObjectID)] = []
        var snapshots: [ManagedObjectID: RowSnapshot]?
        for case let relationship? in slots.relationships where relationship.deleteRule == .cascade || relationship.deleteRule == .deny {
            if relationship.isToMany {
                for related in try store.relatedRows(of: group, relationship: relationship) {
                    links.append((related.owner, relationship, related.row.id))
                }
                continue
            }
            if snapshots == nil {
                snapshots = [:]
                for row in try store.rows(for: group) { snapshots![row.id] = row.snapshot }
            }
            let slot = slots.slotByName[relationship.name]!
            for owner in group {
                if let target = snapshots![owner]?.values[slot].objectID { links.append((owner, relationship, target)) }
            }
        }
        return links
    }
}
