import Foundation
import Testing
import OpenCoreDataTestSupport
@_spi(ChangeTracking) @testable import OpenCoreData

/// The change ledger: random edit sequences on the nested list, several operations per
/// event; each closed `ChangeSet` must name exactly the objects and keys that differ from
/// the previous event's state, and restoring its snapshots must bring that state back.
@Suite struct ChangeLedgerTests {
    /// What one object reads as, compared between events.
    struct ObjectState: Equatable {
        var isLive: Bool
        var isInserted = false
        var title: String?
        var order: Int64?
        var parent: ManagedObjectID?
        var children: Set<ManagedObjectID> = []

        /// The property names whose values differ from `other`'s.
        func differingKeys(from other: ObjectState) -> Set<String> {
            var keys: Set<String> = []
            if title != other.title { keys.insert("title") }
            if order != other.order { keys.insert("order") }
            if parent != other.parent { keys.insert("parent") }
            if children != other.children { keys.insert("children") }
            return keys
        }
    }

    /// A deep copy of the graph: every object the test holds or the context registers.
    typealias GraphState = [ManagedObjectID: ObjectState]

    /// Reads every object's state (firing faults: not a change), keeping them all alive.
    static func state(of context: ManagedObjectContext, holding held: inout [ManagedObject]) -> GraphState {
        var seen = Set(held.map(ObjectIdentifier.init))
        for object in context.registeredObjects where seen.insert(ObjectIdentifier(object)).inserted { held.append(object) }
        var state: GraphState = [:]
        for object in held {
            guard object.managedObjectContext === context, !object.isDeleted else {
                if state[object.objectID] == nil { state[object.objectID] = ObjectState(isLive: false) }
                continue
            }
            let children = (object.value(forKey: "children") as? Set<ManagedObject> ?? []).map(\.objectID)
            state[object.objectID] = ObjectState(
                isLive: !object.isDeleted, isInserted: object.isInserted,
                title: object.value(forKey: "title") as? String, order: object.value(forKey: "order") as? Int64,
                parent: (object.value(forKey: "parent") as? ManagedObject)?.objectID, children: Set(children))
        }
        return state
    }

    /// Checks `changes` against the difference between two states.
    /// Objects the reading of `after` found gone (`invalidatedByReading`) were live
    /// faults when the event closed, and are judged as such.
    static func expect(_ changes: ChangeSet?, describes before: GraphState, _ after: GraphState, invalidatedByReading: Set<ManagedObjectID>, step: String) {
        let ids = Set(before.keys).union(after.keys)
        let dead = ObjectState(isLive: false)
        let inserted = Set(changes?.inserted.map(\.objectID) ?? [])
        let removed = Set((changes?.deleted ?? []).map(\.objectID) + (changes?.invalidated ?? []).map(\.objectID))
        let refreshed = Set(changes?.refreshed.map(\.objectID) ?? [])
        var updated: [ManagedObjectID: Set<String>] = [:]
        for object in changes?.updated ?? [] { updated[object.objectID] = changes?.changedKeys(of: object) }
        for id in ids {
            let was = before[id] ?? dead
            var now = after[id] ?? dead
            if invalidatedByReading.contains(id) {
                if was.isLive { continue }
                now.isLive = true
            }
            if !was.isLive && now.isLive {
                #expect(inserted.contains(id), "\(step): \(id) entered the graph but is not listed as inserted")
            } else if was.isLive && !now.isLive {
                #expect(removed.contains(id), "\(step): \(id) left the graph but is not listed as deleted")
            } else if was.isLive && now.isLive {
                let keys = now.differingKeys(from: was)
                if refreshed.contains(id) { continue }
                #expect(updated[id] ?? [] == keys, "\(step): \(id) changed \(keys.sorted()) but the change set says \((updated[id] ?? []).sorted())")
            } else {
                #expect(!inserted.contains(id) && !removed.contains(id) && updated[id] == nil, "\(step): \(id) stayed out of the graph but is listed (inserted \(inserted.contains(id)), removed \(removed.contains(id)))")
            }
        }
    }

    /// Random events of 1–4 operations; after each, the change set is checked, and half
    /// the time undone by restoring its snapshots.
    @Test(arguments: StoreKind.allCases)
    func changeSetsNameExactlyWhatDiffersAndRestoreIt(kind: StoreKind) throws {
        var random = SeededRandom.fromEnvironment(for: "changeSetsNameExactlyWhatDiffersAndRestoreIt")
        let stack = try TestStack(model: Models.nestedList(), kind: kind)
        let context = stack.context
        try context.performAndWait {
            var held: [ManagedObject] = []
            // A saved tree to start from: three roots with children and grandchildren.
            for r in 0..<3 {
                let root = stack.insert("Item", ["title": "r\(r)", "order": Int64(r)])
                held.append(root)
                for c in 0..<3 {
                    let child = stack.insert("Item", ["title": "r\(r)c\(c)", "order": Int64(c), "parent": root])
                    held.append(child)
                    held.append(stack.insert("Item", ["title": "r\(r)c\(c)g", "order": 0, "parent": child]))
                }
            }
            try context.save()
            var received: [ChangeSet] = []
            context.addChangeConsumer { received.append($0) }
            var current = Self.state(of: context, holding: &held)
            context.processPendingChanges()
            received.removeAll()
            var counter = 0

            for event in 0..<120 {
                let live = held.filter { $0.managedObjectContext === context && !$0.isDeleted }
                var log: [String] = []
                // A merge of changes saved elsewhere is an event of its own (it ends the
                // open event first and its own at once): it is done only as an event's
                // first operation, and ends the event.
                operations: for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let roll = Double.random(in: 0..<1, using: &random)
                    guard !live.isEmpty, let object = live.randomElement(using: &random), object.managedObjectContext === context, !object.isDeleted else {
                        counter += 1
                        held.append(stack.insert("Item", ["title": "n\(counter)"]))
                        log.append("insert n\(counter)")
                        continue
                    }
                    let other = live.randomElement(using: &random).flatMap { $0.managedObjectContext === context && !$0.isDeleted ? $0 : nil }
                    switch roll {
                    case ..<0.2:
                        counter += 1
                        held.append(stack.insert("Item", ["title": "n\(counter)", "order": Int64(counter), "parent": other]))
                        log.append("insert n\(counter) under \(other?.objectID.description ?? "nothing")")
                    case ..<0.35:
                        object.setValue("t\(Int.random(in: 0..<5, using: &random))", forKey: "title")
                        log.append("rename \(object.objectID)")
                    case ..<0.45:
                        object.setValue(Int64.random(in: 0..<4, using: &random), forKey: "order")
                        log.append("reorder \(object.objectID)")
                    case ..<0.55:
                        object.setValue(other, forKey: "parent")
                        log.append("reparent \(object.objectID)")
                    case ..<0.62:
                        if let other { other.mutableSetValue(forKey: "children").add(object) }
                        log.append("adopt \(object.objectID)")
                    case ..<0.68:
                        if let parent = object.value(forKey: "parent") as? ManagedObject {
                            parent.mutableSetValue(forKey: "children").remove(object)
                        }
                        log.append("orphan \(object.objectID)")
                    case ..<0.78:
                        context.delete(object)
                        log.append("delete \(object.objectID)")
                    case ..<0.83:
                        context.refresh(object, mergeChanges: random.chance(0.5))
                        log.append("refresh \(object.objectID)")
                    case ..<0.86:
                        context.rollback()
                        log.append("rollback")
                    case ..<0.95:
                        // Another writer's batch update, merged in.
                        guard log.isEmpty, !object.objectID.isTemporaryID else { continue }
                        let update = BatchUpdateRequest(entityName: "Item")
                        update.predicate = try CDPredicate(format: "SELF == %@", argumentArray: [object.objectID])
                        update.propertiesToUpdate = ["order": Int64(90 + Int.random(in: 0..<5, using: &random))]
                        update.resultType = .updatedObjectIDsResultType
                        let ids = try context.execute(update) as? BatchUpdateResult
                        ManagedObjectContext.mergeChanges(fromRemoteContextSave: [UpdatedObjectsKey: ids?.result as? [ManagedObjectID] ?? []], into: [context])
                        log.append("batch update \(object.objectID)")
                        break operations
                    default:
                        // Another writer's delete of a row (and its cascade), merged in.
                        guard log.isEmpty, !object.objectID.isTemporaryID else { continue }
                        let delete = BatchDeleteRequest(objectIDs: [object.objectID])
                        delete.resultType = .resultTypeObjectIDs
                        let ids = try context.execute(delete) as? BatchDeleteResult
                        ManagedObjectContext.mergeChanges(fromRemoteContextSave: [DeletedObjectsKey: ids?.result as? [ManagedObjectID] ?? []], into: [context])
                        log.append("deleted elsewhere \(object.objectID)")
                        break operations
                    }
                }
                context.processPendingChanges()
                let changes = received.last
                received.removeAll()
                let after = Self.state(of: context, holding: &held)
                // Reading fired faults; an object found gone is an event of its own.
                context.processPendingChanges()
                let invalidated = Set(received.flatMap(\.invalidated).map(\.objectID))
                received.removeAll()
                let step = "event \(event) [\(log.joined(separator: "; "))]"
                Self.expect(changes, describes: current, after, invalidatedByReading: invalidated, step: step)
                if let changes, random.chance(0.5) {
                    context.restore(changes)
                    context.processPendingChanges()
                    received.removeAll()
                    let restored = Self.state(of: context, holding: &held)
                    let wrong = Set(restored.keys).union(current.keys).filter { restored[$0] ?? ObjectState(isLive: false) != current[$0] ?? ObjectState(isLive: false) }
                    #expect(wrong.isEmpty, "\(step): restoring did not bring back \(wrong.map { "\($0): \(String(describing: restored[$0])) ≠ \(String(describing: current[$0]))" })")
                    context.processPendingChanges()
                    received.removeAll()
                    current = restored
                } else {
                    current = after
                }
            }
        }
    }

    /// An event ends by itself at the end of the `perform` block that began it.
    @Test func eventsEndWithPerformWithoutProcessPendingChanges() throws {
        let stack = try TestStack(model: Models.nestedList())
        let context = stack.context
        final class Box: @unchecked Sendable { var sets: [ChangeSet] = [] }
        let box = Box()
        nonisolated(unsafe) let unsafeStack = stack
        context.perform {
            context.addChangeConsumer { box.sets.append($0) }
            _ = unsafeStack.insert("Item", ["title": "milk"])
        }
        context.performAndWait {}
        #expect(box.sets.count == 1)
        #expect(box.sets.first?.inserted.count == 1)
    }

    /// Inserted-then-deleted within one event, and a value changed and changed back, are
    /// no change at all.
    @Test func changesUndoneWithinTheEventAreNotListed() throws {
        let stack = try TestStack(model: Models.nestedList())
        let context = stack.context
        try context.performAndWait {
            let item = stack.insert("Item", ["title": "a"])
            try context.save()
            var sets: [ChangeSet] = []
            context.addChangeConsumer { sets.append($0) }
            item.setValue("b", forKey: "title")
            item.setValue("a", forKey: "title")
            let temporary = stack.insert("Item", ["title": "gone"])
            context.delete(temporary)
            context.processPendingChanges()
            #expect(sets.isEmpty)
            #expect(item.isUpdated)
        }
    }
}
