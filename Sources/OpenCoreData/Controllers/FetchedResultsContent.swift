import Foundation

/// A controller's fetched objects in order, in sections, with what each was sorted and
/// sectioned by, and how they change: `apply` takes the objects an event may have
/// changed and updates the content in place, returning the batch of changes in Core
/// Data's table-view form.
///
/// The order is the fetch's: the sort descriptors, then ties as the stores order them
/// (`PendingFetch.precedesInTie`). Each member keeps the sort values it was placed by, so
/// its old position is found by binary search even after its values changed.
///
/// - Complexity: `apply` is O(c log n) for `c` changed objects among `n` (plus one move
///   of the arrays' tails per inserted or removed object, and O(s) per section change
///   for `s` sections); a change to keys nothing sorts, filters or sections by is O(1)
///   besides finding the object's position.
struct FetchedResultsContent<ResultType: ManagedObject> {
    typealias Keys = [CDSortDescriptor.SortValue]

    /// What a member was placed by, and the ID last reported for it.
    struct Member {
        var keys: Keys
        var section: String
        var reportedID: ManagedObjectID
    }

    /// An object an event may have changed.
    struct Candidate {
        let object: ManagedObject
        /// False when only keys nothing sorts, filters or sections by changed.
        var mayMove: Bool
        /// Its ID changed (temporary to permanent): reported as a removal and an insertion.
        var reidentified = false
    }

    let descriptors: [CDSortDescriptor]
    let sectionNameKeyPath: String?
    private(set) var objects: [ResultType] = []
    private(set) var keys: [Keys] = []
    private(set) var members: [ObjectIdentifier: Member] = [:]
    /// Section names and sizes, in order; one section "" without a section key path.
    private(set) var sectionNames: [String] = [""]
    private(set) var sectionCounts: [Int] = [0]
    /// Where each section starts in `objects`.
    private(set) var sectionStarts: [Int] = [0]

    /// The content of `fetched` (in fetch order).
    init(_ fetched: [ResultType], descriptors: [CDSortDescriptor], sectionNameKeyPath: String?) {
        self.descriptors = descriptors
        self.sectionNameKeyPath = sectionNameKeyPath
        objects = fetched
        keys = fetched.map(sortKeys)
        members.reserveCapacity(fetched.count)
        if sectionNameKeyPath != nil {
            sectionNames = []
            sectionCounts = []
        } else {
            sectionCounts = [fetched.count]
        }
        for (object, keys) in zip(fetched, keys) {
            let section = sectionName(of: object)
            members[ObjectIdentifier(object)] = Member(keys: keys, section: section, reportedID: object.objectID)
            guard sectionNameKeyPath != nil else { continue }
            if sectionNames.last == section {
                sectionCounts[sectionCounts.count - 1] += 1
            } else {
                sectionNames.append(section)
                sectionCounts.append(1)
            }
        }
        sectionStarts = Self.starts(sectionCounts)
    }

    /// The content of `fetched` (in fetch order) in the given sections (cached ones).
    init(_ fetched: [ResultType], descriptors: [CDSortDescriptor], sectionNameKeyPath: String?, sections: (names: [String], counts: [Int])) {
        self.descriptors = descriptors
        self.sectionNameKeyPath = sectionNameKeyPath
        objects = fetched
        keys = fetched.map { object in descriptors.map { $0.sortValue(of: object) } }
        sectionNames = sections.names
        sectionCounts = sections.counts
        sectionStarts = Self.starts(sectionCounts)
        members.reserveCapacity(fetched.count)
        for (section, name) in sectionNames.enumerated() {
            let start = sectionStarts[section]
            for index in start ..< start + sectionCounts[section] {
                members[ObjectIdentifier(fetched[index])] = Member(keys: keys[index], section: name, reportedID: fetched[index].objectID)
            }
        }
    }

    // MARK: - Reading

    func sortKeys(_ object: ManagedObject) -> Keys {
        descriptors.map { $0.sortValue(of: object) }
    }

    /// The section name of `object`: the value at the section key path as a string, ""
    /// for nil (and without a section key path).
    func sectionName(of object: ManagedObject) -> String {
        guard let sectionNameKeyPath else { return "" }
        let value = CDValue.flattenOptional(try? KeyPathReader.value(of: object, keyPath: sectionNameKeyPath))
        switch value {
        case nil, is NSNull: return ""
        case let string as String: return string
        case let other?: return String(describing: other)
        }
    }

    /// The index path of the object at `index` of `objects`.
    func indexPath(ofIndex index: Int) -> IndexPath {
        Self.indexPath(ofIndex: index, starts: sectionStarts)
    }

    /// The position of `object` in `objects`, or nil when it is not a member.
    func index(of object: ManagedObject) -> Int? {
        guard let member = members[ObjectIdentifier(object)] else { return nil }
        return index(of: object, keys: member.keys)
    }

    /// The first section name that returns after another section began, with the
    /// position of its object: objects must be sorted by section.
    func sectionOrderViolation() -> (index: Int, name: String)? {
        var seen = Set<String>()
        for (position, name) in sectionNames.enumerated() where !seen.insert(name).inserted {
            return (sectionStarts[position], name)
        }
        return nil
    }

    // MARK: - Ordering

    /// Whether `(a, aID)` sorts before `(b, bID)`.
    private func precedes(_ a: Keys, _ aID: ManagedObjectID, _ b: Keys, _ bID: ManagedObjectID) -> Bool {
        PendingFetch.precedes(a, aID, b, bID, by: descriptors)
    }

    private func same(_ a: Keys, _ b: Keys) -> Bool {
        zip(descriptors.indices, zip(a, b)).allSatisfy { descriptors[$0].compareValues($1.0, $1.1) == .orderedSame }
    }

    /// The first position whose object does not sort before `(keys, id)`.
    private func lowerBound(_ keys: Keys, _ id: ManagedObjectID) -> Int {
        var low = 0, high = objects.count
        while low < high {
            let middle = (low + high) / 2
            if precedes(self.keys[middle], objects[middle].objectID, keys, id) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The position of member `object` placed by `keys`: by binary search, or by a scan
    /// when the order cannot find it (a sort value that does not order consistently).
    private func index(of object: ManagedObject, keys: Keys) -> Int? {
        let guess = lowerBound(keys, object.objectID)
        if guess < objects.count && objects[guess] === object { return guess }
        return objects.firstIndex { $0 === object }
    }

    // MARK: - Changes

    /// Applies what the candidates now are — `matching(object)` gives an object that
    /// belongs to the results now — and returns the changes.
    mutating func apply(_ candidates: [Candidate], matching: (ManagedObject) -> ResultType?) -> FetchedResultsBatch<ResultType> {
        let oldStarts = sectionStarts
        let oldNames = sectionNames
        var removals: [Removal] = []
        var insertions: [Insertion] = []
        var updates: [(index: Int, object: ResultType, keys: Keys?)] = []
        for candidate in candidates {
            let id = ObjectIdentifier(candidate.object)
            let member = members[id]
            if !candidate.mayMove && !candidate.reidentified {
                guard let member, let index = index(of: candidate.object, keys: member.keys) else { continue }
                updates.append((index, objects[index], nil))
                continue
            }
            let now = matching(candidate.object)
            let newKeys = now.map(sortKeys)
            let newSection = now.map(sectionName) ?? ""
            if let member {
                guard let index = index(of: candidate.object, keys: member.keys) else { continue }
                guard let now, let newKeys else {
                    removals.append(Removal(index: index, object: objects[index], member: member, reinserted: false))
                    continue
                }
                if !candidate.reidentified && newSection == member.section && same(newKeys, member.keys) {
                    updates.append((index, now, newKeys))
                    continue
                }
                removals.append(Removal(index: index, object: now, member: member, reinserted: true))
                insertions.append(Insertion(object: now, keys: newKeys, section: newSection, oldIndex: index))
            } else if let now, let newKeys {
                insertions.append(Insertion(object: now, keys: newKeys, section: newSection, oldIndex: nil))
            }
        }
        keepMovesInPlace(&removals, &insertions, &updates)
        var batch = FetchedResultsBatch<ResultType>()
        for removal in removals {
            batch.removed.append(.init(object: removal.object, index: removal.index, indexPath: Self.indexPath(ofIndex: removal.index, starts: oldStarts), id: removal.member.reportedID))
        }
        for update in updates {
            batch.updated.append(.init(object: update.object, index: update.index, indexPath: Self.indexPath(ofIndex: update.index, starts: oldStarts), id: update.object.objectID))
        }
        // Objects updated in place take their new sort values before anything is
        // inserted beside them.
        for update in updates {
            guard let keys = update.keys else { continue }
            self.keys[update.index] = keys
            members[ObjectIdentifier(update.object)]?.keys = keys
        }
        let positions: [(Insertion, Int)]
        if removals.count == 1, insertions.count == 1, let from = insertions[0].oldIndex, from == removals[0].index {
            positions = [(insertions[0], move(removals[0], insertions[0], oldStarts: oldStarts))]
        } else {
            remove(removals, oldStarts: oldStarts)
            positions = insert(insertions.sorted { precedes($0.keys, $0.object.objectID, $1.keys, $1.object.objectID) })
        }
        dropEmptySections()
        sectionStarts = Self.starts(sectionCounts)
        for (insertion, position) in positions {
            batch.inserted.append(.init(object: insertion.object, index: position, indexPath: indexPath(ofIndex: position), id: insertion.object.objectID, oldIndex: insertion.oldIndex))
        }
        if sectionNameKeyPath != nil {
            let newNames = Set(sectionNames), previous = Set(oldNames)
            for (index, name) in oldNames.enumerated() where !newNames.contains(name) { batch.deletedSections.append((index, name)) }
            for (index, name) in sectionNames.enumerated() where !previous.contains(name) { batch.insertedSections.append((index, name)) }
        }
        return batch
    }

    /// Everything removed and `fetched` put in its place: after `reset()`, whose objects
    /// are new instances.
    mutating func replace(with fetched: [ResultType]) -> FetchedResultsBatch<ResultType> {
        var batch = FetchedResultsBatch<ResultType>()
        for (index, object) in objects.enumerated() {
            batch.removed.append(.init(object: object, index: index, indexPath: indexPath(ofIndex: index), id: members[ObjectIdentifier(object)]?.reportedID ?? object.objectID))
        }
        let oldNames = sectionNames
        self = FetchedResultsContent(fetched, descriptors: descriptors, sectionNameKeyPath: sectionNameKeyPath)
        for (index, object) in objects.enumerated() {
            batch.inserted.append(.init(object: object, index: index, indexPath: indexPath(ofIndex: index), id: object.objectID, oldIndex: nil))
        }
        if sectionNameKeyPath != nil {
            batch.deletedSections = Array(oldNames.enumerated().map { ($0.offset, $0.element) })
            batch.insertedSections = Array(sectionNames.enumerated().map { ($0.offset, $0.element) })
        }
        return batch
    }

    /// Notes the IDs now reported for members (without a change to report).
    mutating func noteReportedIDs(of objects: [ManagedObject]) {
        for object in objects where members[ObjectIdentifier(object)] != nil {
            members[ObjectIdentifier(object)]?.reportedID = object.objectID
        }
    }

    /// Whether a member's ID differs from the one last reported.
    func isReidentified(_ object: ManagedObject) -> Bool {
        guard let member = members[ObjectIdentifier(object)] else { return false }
        return member.reportedID != object.objectID
    }

    // MARK: - Applying

    private struct Removal {
        let index: Int
        let object: ResultType
        let member: Member
        /// Whether it comes back elsewhere (a move).
        let reinserted: Bool
    }

    private struct Insertion {
        let object: ResultType
        let keys: Keys
        let section: String
        /// Its old position, for a move.
        let oldIndex: Int?
    }

    /// Turns moves whose object would land between the same neighbours back into
    /// updates in place (a sort key changed a little).
    private func keepMovesInPlace(_ removals: inout [Removal], _ insertions: inout [Insertion], _ updates: inout [(index: Int, object: ResultType, keys: Keys?)]) {
        guard !insertions.isEmpty, removals.contains(where: \.reinserted) else { return }
        let removed = Set(removals.map(\.index))
        var kept = Set<Int>()
        for insertion in insertions {
            guard let index = insertion.oldIndex else { continue }
            let member = members[ObjectIdentifier(insertion.object)]
            guard let member, member.section == insertion.section, member.reportedID == insertion.object.objectID else { continue }
            let id = insertion.object.objectID
            if index > 0 && (removed.contains(index - 1) || !precedes(keys[index - 1], objects[index - 1].objectID, insertion.keys, id)) { continue }
            if index + 1 < objects.count && (removed.contains(index + 1) || !precedes(insertion.keys, id, keys[index + 1], objects[index + 1].objectID)) { continue }
            kept.insert(index)
            updates.append((index, insertion.object, insertion.keys))
        }
        guard !kept.isEmpty else { return }
        removals.removeAll { kept.contains($0.index) }
        insertions.removeAll { $0.oldIndex.map(kept.contains) ?? false }
    }

    /// One object moved (a sort or section key changed): the objects between its old and
    /// new places shift by one, in one pass, rather than all after either place twice (a
    /// removal, then an insertion). Returns its new position.
    private mutating func move(_ removal: Removal, _ insertion: Insertion, oldStarts: [Int]) -> Int {
        let from = removal.index
        members[ObjectIdentifier(removal.object)] = nil
        sectionCounts[Self.section(ofIndex: from, starts: oldStarts)] -= 1
        // The place among the others: the array is sorted with the object still at `from`.
        let found = lowerBound(insertion.keys, insertion.object.objectID)
        let position = found > from ? found - 1 : found
        Self.shift(&objects, from: from, to: position, placing: insertion.object)
        Self.shift(&keys, from: from, to: position, placing: insertion.keys)
        members[ObjectIdentifier(insertion.object)] = Member(keys: insertion.keys, section: insertion.section, reportedID: insertion.object.objectID)
        addToSection(insertion.section, at: position)
        return position
    }

    /// Moves the elements between `from` and `to` one place towards `from` (memory moves,
    /// no reference counting) and puts `element` at `to`, in place of the one at `from`.
    private static func shift<Element>(_ array: inout [Element], from: Int, to: Int, placing element: Element) {
        array.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            _ = (base + from).move()
            if to > from {
                (base + from).moveInitialize(from: base + from + 1, count: to - from)
            } else if to < from {
                (base + to + 1).moveInitialize(from: base + to, count: from - to)
            }
            (base + to).initialize(to: element)
        }
    }

    /// Removes `removals` (positions in the old content) from the arrays and sections.
    private mutating func remove(_ removals: [Removal], oldStarts: [Int]) {
        guard !removals.isEmpty else { return }
        for removal in removals {
            members[ObjectIdentifier(removal.object)] = nil
            sectionCounts[Self.section(ofIndex: removal.index, starts: oldStarts)] -= 1
        }
        if removals.count <= 64 {
            for index in removals.map(\.index).sorted(by: >) {
                objects.remove(at: index)
                keys.remove(at: index)
            }
        } else {
            let removed = Set(removals.map(\.index))
            objects = objects.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
            keys = keys.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
        }
    }

    /// Inserts `insertions` (sorted) in order; returns each with its final position.
    private mutating func insert(_ insertions: [Insertion]) -> [(Insertion, Int)] {
        var positions: [(Insertion, Int)] = []
        positions.reserveCapacity(insertions.count)
        if insertions.count <= 64 {
            for insertion in insertions {
                let position = lowerBound(insertion.keys, insertion.object.objectID)
                objects.insert(insertion.object, at: position)
                keys.insert(insertion.keys, at: position)
                positions.append((insertion, position))
            }
        } else {
            var mergedObjects: [ResultType] = [], mergedKeys: [Keys] = []
            mergedObjects.reserveCapacity(objects.count + insertions.count)
            mergedKeys.reserveCapacity(objects.count + insertions.count)
            var next = 0
            for insertion in insertions {
                while next < objects.count && precedes(keys[next], objects[next].objectID, insertion.keys, insertion.object.objectID) {
                    mergedObjects.append(objects[next])
                    mergedKeys.append(keys[next])
                    next += 1
                }
                positions.append((insertion, mergedObjects.count))
                mergedObjects.append(insertion.object)
                mergedKeys.append(insertion.keys)
            }
            mergedObjects += objects[next...]
            mergedKeys += keys[next...]
            objects = mergedObjects
            keys = mergedKeys
        }
        for (insertion, position) in positions {
            members[ObjectIdentifier(insertion.object)] = Member(keys: insertion.keys, section: insertion.section, reportedID: insertion.object.objectID)
            addToSection(insertion.section, at: position)
        }
        return positions
    }

    /// Counts an object inserted at `position` (processed in ascending order) in its
    /// section, making the section after the previous object's when it is new.
    private mutating func addToSection(_ name: String, at position: Int) {
        guard sectionNameKeyPath != nil else {
            sectionCounts[0] += 1
            return
        }
        if let existing = sectionNames.firstIndex(of: name) {
            sectionCounts[existing] += 1
            return
        }
        var index = 0
        if position > 0, let previous = members[ObjectIdentifier(objects[position - 1])], let before = sectionNames.firstIndex(of: previous.section) {
            index = before + 1
        }
        sectionNames.insert(name, at: index)
        sectionCounts.insert(1, at: index)
    }

    private mutating func dropEmptySections() {
        guard sectionNameKeyPath != nil, sectionCounts.contains(0) else { return }
        let kept = sectionCounts.indices.filter { sectionCounts[$0] > 0 }
        sectionNames = kept.map { sectionNames[$0] }
        sectionCounts = kept.map { sectionCounts[$0] }
    }

    // MARK: - Index arithmetic

    static func starts(_ counts: [Int]) -> [Int] {
        var starts: [Int] = []
        starts.reserveCapacity(counts.count)
        var total = 0
        for count in counts {
            starts.append(total)
            total += count
        }
        return starts
    }

    /// The section holding position `index`: the last section starting at or before it.
    static func section(ofIndex index: Int, starts: [Int]) -> Int {
        var low = 0, high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] <= index { low = middle + 1 } else { high = middle }
        }
        return max(0, low - 1)
    }

    static func indexPath(ofIndex index: Int, starts: [Int]) -> IndexPath {
        let section = section(ofIndex: index, starts: starts)
        return IndexPath(indexes: [section, index - starts[section]])
    }
}
