import Foundation

/// What a fetched results controller watches, worked out once per `performFetch()`: the
/// request resolved against the model, the keys of a fetched object that decide whether
/// it matches, where it sorts and which section it is in, and the key paths that reach
/// other objects through relationships (for `observesRelatedObjects`).
struct FetchedResultsPlan {
    let query: StoreFetch
    let sectionNameKeyPath: String?
    /// The keys of a fetched object that its membership, order or section read; nil when
    /// the predicate cannot be analysed (any change may matter).
    let relevantKeys: Set<String>?
    /// Key paths of the predicate, sort descriptors and section key path that go through
    /// relationships.
    let relatedPaths: [RelatedPath]
    /// `relevantKeys` as slots, per entity (`EntitySlots.number`), made on first need.
    private var relevantSlots: [Int: SlotSet] = [:]

    /// A key path through relationships, from the fetched entity: `project.owner.name`
    /// has the relationships `project` and `owner`, and at depth 1 (a project) the key
    /// `owner`, at depth 2 (an owner) the key `name`.
    struct RelatedPath {
        let relationships: [RelationshipDescription]
        /// `keys[j - 1]`: the key read from the objects at depth `j` (nil: only the
        /// collection itself, as in `tasks.@count`).
        let keys: [String?]
    }

    init(query: StoreFetch, sectionNameKeyPath: String?) {
        self.query = query
        self.sectionNameKeyPath = sectionNameKeyPath
        var paths = KeyPathCollector()
        if let predicate = query.predicate { paths.collect(predicate, variables: [:]) }
        paths.keyPaths += query.sortDescriptors.map(\.key)
        if let sectionNameKeyPath { paths.keyPaths.append(sectionNameKeyPath) }
        var keys = Set<String>()
        var related: [RelatedPath] = []
        for keyPath in paths.keyPaths {
            let components = keyPath.split(separator: ".").map(String.init)
            guard let first = components.first(where: { !$0.hasPrefix("@") }) else { continue }
            keys.insert(first)
            if let path = Self.relatedPath(components, from: query.entity) { related.append(path) }
        }
        relevantKeys = paths.isComplete ? keys : nil
        relatedPaths = related
    }

    /// Whether a change of the slots `changed` of `object` (a fetched entity's) may change
    /// its membership, position or section.
    mutating func mayMove(_ object: ManagedObject, changed: SlotSet) -> Bool {
        guard let relevantKeys else { return true }
        let slots = object.entity.slots
        let relevant: SlotSet
        if let known = relevantSlots[slots.number] {
            relevant = known
        } else {
            relevant = SlotSet(relevantKeys.compactMap { slots.slot(forKey: $0) })
            relevantSlots[slots.number] = relevant
        }
        return !changed.intersection(relevant).isEmpty
    }

    /// The relationships `components` walks from `entity` before it reaches an attribute,
    /// with the key read at each depth; nil when it crosses none.
    private static func relatedPath(_ components: [String], from entity: EntityDescription) -> RelatedPath? {
        var relationships: [RelationshipDescription] = []
        var keys: [String?] = []
        var current = entity
        for component in components where !component.hasPrefix("@") {
            if !relationships.isEmpty { keys[keys.count - 1] = component }
            guard let relationship = current.relationshipsByName[component], let destination = relationship.destinationEntity else { break }
            relationships.append(relationship)
            keys.append(nil)
            current = destination
        }
        return relationships.isEmpty ? nil : RelatedPath(relationships: relationships, keys: keys)
    }
}

/// The key paths a predicate reads from the evaluated object, `SUBQUERY` variables'
/// paths prefixed with their collection's.
private struct KeyPathCollector {
    var keyPaths: [String] = []
    /// False when some expression reads keys this walk cannot name.
    var isComplete = true

    mutating func collect(_ predicate: CDPredicate, variables: [String: String]) {
        switch predicate.kind {
        case .constant: return
        case .compound(let compound):
            for subpredicate in compound.subpredicates { collect(subpredicate, variables: variables) }
        case .comparison(let comparison):
            collect(comparison.leftExpression, variables: variables)
            collect(comparison.rightExpression, variables: variables)
        }
    }

    /// Collects `expression`'s key paths; returns the key path it yields from the
    /// evaluated object, when it is one.
    @discardableResult
    mutating func collect(_ expression: CDExpression, variables: [String: String]) -> String? {
        switch expression.kind {
        case .constantValue, .evaluatedObject:
            return nil
        case .anyKey:
            isComplete = false
            return nil
        case .variable(let name):
            return variables[name]
        case .keyPath(let keyPath):
            keyPaths.append(keyPath)
            return keyPath
        case .member(let base, let keyPath):
            let prefix: String?
            if case .evaluatedObject = base.kind { prefix = "" } else { prefix = collect(base, variables: variables) }
            guard let prefix else {
                if case .variable = base.kind { return nil }
                isComplete = false
                return nil
            }
            let full = prefix.isEmpty ? keyPath : prefix + "." + keyPath
            keyPaths.append(full)
            return full
        case .index(let base, let index):
            if case .expression(let position) = index { collect(position, variables: variables) }
            return collect(base, variables: variables)
        case .function(_, let arguments), .aggregate(let arguments):
            for argument in arguments { collect(argument, variables: variables) }
            return nil
        case .customFunction(let target, _, let arguments):
            for argument in [target] + arguments { collect(argument, variables: variables) }
            return nil
        case .subquery(let collection, let variable, let predicate):
            let path = collect(collection, variables: variables)
            var inner = variables
            inner[variable] = path
            if path == nil { isComplete = false }
            collect(predicate, variables: inner)
            return nil
        case .conditional(let predicate, let whenTrue, let whenFalse):
            collect(predicate, variables: variables)
            collect(whenTrue, variables: variables)
            collect(whenFalse, variables: variables)
            return nil
        case .unionSet(let a, let b), .intersectSet(let a, let b), .minusSet(let a, let b):
            collect(a, variables: variables)
            collect(b, variables: variables)
            return nil
        }
    }
}
