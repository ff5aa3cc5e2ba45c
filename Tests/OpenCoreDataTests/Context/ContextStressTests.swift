import Foundation
import Testing
import OpenCoreData
import OpenCoreDataTestSupport

/// Several contexts on several threads edit one nested list at once — sibling contexts on
/// one coordinator, and child contexts of a shared parent — under each merge policy. After
/// every round the store must be sound: `PRAGMA integrity_check`, inverses agreeing, no
/// dangling reference, sibling orders 0…n-1, one root, and every acknowledged insert still
/// there unless an acknowledged delete took it (or an ancestor it ever had).
///
/// The workers act as an app would: under `.error` a conflicting save is rolled back and
/// the action redone on fresh data; under the other policies the save goes through, and
/// the worker then re-reads every list and renumbers any a merge left with a gap
/// or a clash. `OCD_SEED` replays each worker's choices; thread interleavings differ from
/// run to run. Under the thread sanitizer (docs/concurrency.md):
/// `swift test --sanitize=thread --filter ContextStressTests`.
@Suite struct ContextStressTests {
    static let rounds = 4
    static let stepsPerRound = 12

    @Test(arguments: StressPolicy.allCases)
    func concurrentEditorsKeepTheListSound(_ policy: StressPolicy) throws {
        let stack = try TestStack(model: Models.nestedList())
        try StressWorld.seed(stack.context)
        var random = SeededRandom.fromEnvironment(for: "ContextStressTests.\(policy)")
        let ledger = StressLedger()

        let parent = stack.newContext()
        parent.mergePolicy = policy.policy
        var editors: [StressEditor] = (0..<3).map { index in
            let context = stack.newContext()
            context.mergePolicy = policy.policy
            return StressEditor(name: "sibling\(index)", context: context, saveParent: nil, seed: random.next(), ledger: ledger)
        }
        for index in 0..<2 {
            let child = ManagedObjectContext(concurrencyType: .privateQueue)
            child.parent = parent
            child.mergePolicy = policy.policy
            editors.append(StressEditor(name: "child\(index)", context: child, saveParent: parent, seed: random.next(), ledger: ledger))
        }

        for round in 0..<Self.rounds {
            let group = DispatchGroup()
            let failures = StressFailures()
            for editor in editors {
                group.enter()
                Thread {
                    defer { group.leave() }
                    do { try editor.run(steps: Self.stepsPerRound) } catch { failures.add("\(editor.name): \(error)") }
                }.start()
            }
            group.wait()
            #expect(failures.all.isEmpty, "round \(round) under \(policy): \(failures.all)")
            let problems = try StressWorld.problems(in: stack, ledger: ledger)
            #expect(problems.isEmpty, "round \(round) under \(policy): \(problems.prefix(10))")
            if !failures.all.isEmpty || !problems.isEmpty { return }
        }
    }
}

/// The merge policies, by name (test arguments must be `Sendable` and printable).
enum StressPolicy: String, CaseIterable, Sendable {
    case error, storeTrump, objectTrump, overwrite, rollback

    var policy: MergePolicy {
        switch self {
        case .error: .error
        case .storeTrump: .mergeByPropertyStoreTrump
        case .objectTrump: .mergeByPropertyObjectTrump
        case .overwrite: .overwrite
        case .rollback: .rollback
        }
    }
}

/// Errors of the worker threads, collected for the test.
final class StressFailures: @unchecked Sendable {
    private let lock = NSLock()
    private var failures: [String] = []
    func add(_ failure: String) { lock.withLock { failures.append(failure) } }
    var all: [String] { lock.withLock { failures } }
}

/// What the editors' acknowledged saves promise: items added (by identity, the title
/// before `#`), the parents each ever had, and the items deleted.
final class StressLedger: @unchecked Sendable {
    private let lock = NSLock()
    private var added: Set<String> = []
    private var parentsEver: [String: Set<String>] = [:]
    private var deleted: Set<String> = []

    func acknowledge(_ actions: [StressAction]) {
        lock.withLock {
            for action in actions {
                switch action {
                case .added(let item, let parent):
                    added.insert(item)
                    parentsEver[item, default: []].insert(parent)
                case .moved(let item, let parent): parentsEver[item, default: []].insert(parent)
                case .deleted(let item): deleted.insert(item)
                }
            }
        }
    }

    /// Acknowledged items missing from `present` that no acknowledged delete explains.
    func lost(present: Set<String>) -> [String] {
        lock.withLock {
            added.subtracting(present).filter { !explainedByDelete($0) }.sorted()
        }
    }

    private func explainedByDelete(_ item: String) -> Bool {
        var seen: Set<String> = []
        var frontier = [item]
        while let next = frontier.popLast() {
            guard seen.insert(next).inserted else { continue }
            if deleted.contains(next) { return true }
            frontier += parentsEver[next] ?? []
        }
        return false
    }
}

/// One acknowledged change, by item identity.
enum StressAction {
    case added(item: String, parent: String)
    case moved(item: String, parent: String)
    case deleted(item: String)
}

/// One editing context and the thread that drives it.
final class StressEditor: @unchecked Sendable {
    // @unchecked Sendable: used by one thread at a time (its worker thread).
    let name: String
    let context: ManagedObjectContext
    /// The shared parent a child editor saves through (nil for a sibling on the coordinator).
    let saveParent: ManagedObjectContext?
    let ledger: StressLedger
    private var random: SeededRandom
    private var counter = 0
    /// Children of one parent push and the parent saves under this lock: one child's
    /// failed save must not roll back another's pushed changes.
    private static let parentLock = NSLock()

    init(name: String, context: ManagedObjectContext, saveParent: ManagedObjectContext?, seed: UInt64, ledger: StressLedger) {
        self.name = name
        self.context = context
        self.saveParent = saveParent
        self.ledger = ledger
        random = SeededRandom(seed: seed)
    }

    private var repairs: Bool { context.mergePolicy.mergeType != .errorMergePolicyType }

    func run(steps: Int) throws {
        for _ in 0..<steps { try step() }
    }

    /// One action, redone on fresh data while its save meets a conflict.
    private func step() throws {
        for _ in 0..<20 {
            let actions = try locked {
                try context.performAndWait { () -> [StressAction] in
                    refresh()
                    return try act(on: StressWorld.items(in: context))
                }
            }
            if try saveOrRollBack() {
                ledger.acknowledge(actions)
                if repairs { try repair() }
                return
            }
        }
        throw StressError("\(name): 20 conflicting saves in a row")
    }

    /// Reads what others saved: the shared parent first, for a child.
    private func refresh() {
        saveParent?.performAndWait { saveParent?.refreshAllObjects() }
        context.refreshAllObjects()
    }

    /// Saves all the way to the store; on a merge conflict or constraint clash rolls back
    /// (both levels) and returns false.
    private func saveOrRollBack() throws -> Bool {
        try locked {
            do {
                try context.performAndWait { try context.save() }
                if let saveParent { try saveParent.performAndWait { try saveParent.save() } }
                return true
            } catch let error as CoreDataError where error.code == .mergeConflict {
                saveParent?.performAndWait { saveParent?.rollback() }
                context.performAndWait { context.rollback() }
                return false
            }
        }
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        guard saveParent != nil else { return try body() }
        Self.parentLock.lock()
        defer { Self.parentLock.unlock() }
        return try body()
    }

    /// Makes one random change to the list; returns what a successful save acknowledges.
    private func act(on items: [ManagedObject]) throws -> [StressAction] {
        let world = StressWorld(items)
        counter += 1
        let choice = Int.random(in: 0..<10, using: &random)
        if choice < 4 || world.items.count < 6 {
            let parent = random.pick(world.items.filter { world.depth($0) <= 2 })
            let item = EntityDescription.insertNewObject(forEntityName: "Item", into: context)
            let identity = "\(name)-\(counter)"
            item.setValue("\(identity)#0", forKey: "title")
            item.setValue(Int64(world.children(of: parent).count), forKey: "order")
            item.setValue(parent, forKey: "parent")
            return [.added(item: identity, parent: StressWorld.identity(parent))]
        }
        let leaves = world.items.filter { world.depth($0) >= 1 && world.children(of: $0).isEmpty }
        if choice < 6, let leaf = leaves.isEmpty ? nil : random.pick(leaves), let parent = world.parent(of: leaf) {
            world.close(gapOf: leaf, in: parent)
            context.delete(leaf)
            return [.deleted(item: StressWorld.identity(leaf))]
        }
        let deepLeaves = leaves.filter { world.depth($0) >= 2 }
        let targets = world.items.filter { world.depth($0) == 1 }
        if choice < 8, let leaf = deepLeaves.isEmpty ? nil : random.pick(deepLeaves), let old = world.parent(of: leaf),
           let target = targets.filter({ $0 !== old }).randomElement(using: &random) {
            world.close(gapOf: leaf, in: old)
            leaf.setValue(Int64(world.children(of: target).count), forKey: "order")
            leaf.setValue(target, forKey: "parent")
            return [.moved(item: StressWorld.identity(leaf), parent: StressWorld.identity(target))]
        }
        let item = random.pick(world.items)
        item.setValue("\(StressWorld.identity(item))#\(counter)", forKey: "title")
        return []
    }

    /// Re-reads every list and renumbers any a merge left with a gap or a clash, saving
    /// until all are contiguous. Every list, not only those this editor touched: a merge
    /// of another editor's save can break a list this one never edited, and the last
    /// editor to save must leave every list sound.
    private func repair() throws {
        for _ in 0..<20 {
            let changed = try locked {
                try context.performAndWait { () -> Bool in
                    refresh()
                    let world = StressWorld(try StressWorld.items(in: context))
                    var changed = false
                    for parent in world.items {
                        let children = world.children(of: parent).sorted {
                            (StressWorld.order($0), $0.value(forKey: "title") as? String ?? "") < (StressWorld.order($1), $1.value(forKey: "title") as? String ?? "")
                        }
                        for (index, child) in children.enumerated() where StressWorld.order(child) != Int64(index) {
                            child.setValue(Int64(index), forKey: "order")
                            changed = true
                        }
                    }
                    return changed
                }
            }
            guard changed else { return }
            if try saveOrRollBack() { continue }
        }
        throw StressError("\(name): lists still not contiguous after 20 repairs")
    }
}

struct StressError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A fetched snapshot of the list: depths, parents and children, and the checks of a
/// store after a round.
struct StressWorld {
    let items: [ManagedObject]
    private var childrenByParent: [ManagedObjectID: [ManagedObject]] = [:]
    private var parentByID: [ManagedObjectID: ManagedObject] = [:]

    init(_ items: [ManagedObject]) {
        self.items = items
        for item in items {
            guard let parent = item.value(forKey: "parent") as? ManagedObject else { continue }
            parentByID[item.objectID] = parent
            childrenByParent[parent.objectID, default: []].append(item)
        }
    }

    func parent(of item: ManagedObject) -> ManagedObject? { parentByID[item.objectID] }

    func children(of item: ManagedObject) -> [ManagedObject] {
        (childrenByParent[item.objectID] ?? []).sorted { Self.order($0) < Self.order($1) }
    }

    func depth(_ item: ManagedObject) -> Int {
        var depth = 0
        var current = item
        while let parent = parentByID[current.objectID], depth < 100 {
            depth += 1
            current = parent
        }
        return depth
    }

    /// Moves up the siblings after `item` in `parent`'s list (as `prepareForDeletion` would).
    func close(gapOf item: ManagedObject, in parent: ManagedObject) {
        let position = Self.order(item)
        for sibling in children(of: parent) where sibling !== item && Self.order(sibling) > position {
            sibling.setValue(Self.order(sibling) - 1, forKey: "order")
        }
    }

    static func order(_ item: ManagedObject) -> Int64 { item.value(forKey: "order") as? Int64 ?? -1 }
    static func identity(_ item: ManagedObject) -> String {
        String((item.value(forKey: "title") as? String ?? "?").split(separator: "#").first ?? "?")
    }

    static func items(in context: ManagedObjectContext) throws -> [ManagedObject] {
        try context.fetch(FetchRequest<ManagedObject>(entityName: "Item"))
    }

    /// The root and four lists under it.
    static func seed(_ context: ManagedObjectContext) throws {
        try context.performAndWait {
            let root = EntityDescription.insertNewObject(forEntityName: "Item", into: context)
            root.setValue("root#0", forKey: "title")
            for index in 0..<4 {
                let item = EntityDescription.insertNewObject(forEntityName: "Item", into: context)
                item.setValue("seed-\(index)#0", forKey: "title")
                item.setValue(Int64(index), forKey: "order")
                item.setValue(root, forKey: "parent")
            }
            try context.save()
        }
    }

    /// Everything wrong with the store after a round, read afresh.
    static func problems(in stack: TestStack, ledger: StressLedger) throws -> [String] {
        var problems: [String] = []
        if let url = stack.storeURL {
            let inspector = SQLiteInspector(url)
            let integrity = try inspector.strings("PRAGMA integrity_check")
            if integrity != ["ok"] { problems.append("integrity_check: \(integrity)") }
            let dangling = try inspector.strings("SELECT count(*) FROM ZITEM WHERE ZPARENT IS NOT NULL AND ZPARENT NOT IN (SELECT Z_PK FROM ZITEM)")
            if dangling != ["0"] { problems.append("\(dangling) rows point at a missing parent") }
        }
        let fresh = stack.newContext()
        try fresh.performAndWait {
            let world = StressWorld(try items(in: fresh))
            let roots = world.items.filter { world.parent(of: $0) == nil }
            if roots.count != 1 { problems.append("\(roots.count) roots: \(roots.map(identity))") }
            for item in world.items {
                let orders = world.children(of: item).map(order)
                if orders != (0..<Int64(orders.count)).map({ $0 }) { problems.append("\(identity(item))'s children have orders \(orders)") }
            }
            problems += InvariantChecker.check(fresh)
            problems += ledger.lost(present: Set(world.items.map(identity))).map { "acknowledged \($0) is lost" }
        }
        return problems
    }
}
