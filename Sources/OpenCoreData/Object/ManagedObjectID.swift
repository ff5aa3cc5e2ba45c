import Foundation
import Synchronization

/// The identity of a managed object: its entity, its store and its primary key.
///
/// An object inserted into a context has a temporary ID until it is saved (or
/// `obtainPermanentIDs(for:)` is called); from then on its ID is permanent and can be
/// passed between contexts and threads (`ManagedObjectID` is `Sendable`) or archived
/// through `uriRepresentation()`.
public struct ManagedObjectID: Hashable, Sendable, CustomStringConvertible {
    package enum Reference: Hashable, Sendable {
        case permanent(Int64)
        case temporary(UInt64)
    }

    /// The entity of the object (always the concrete entity, never an abstract parent).
    public var entity: EntityDescription { entityReference }
    /// Not retained per ID: `owner` keeps it alive. Entities are targets of weak
    /// references, which makes retaining them slow, and IDs are copied on every hot path.
    private unowned(unsafe) let entityReference: EntityDescription
    /// What keeps `entity` alive, in one reference: the store (which keeps its model's
    /// layout, holding every entity) for a permanent ID; the layout, or the entity itself
    /// before its model is frozen, for a temporary one.
    private let owner: Owner
    package let reference: Reference

    private enum Owner: Sendable {
        case store(StoreToken)
        case model(any AnyObject & Sendable)
    }

    package init(entity: EntityDescription, store: StoreToken, primaryKey: Int64) {
        entityReference = entity
        owner = .store(store)
        reference = .permanent(primaryKey)
    }

    /// A permanent ID for a store known only by its identifier (for tests and archives).
    package init(entity: EntityDescription, storeIdentifier: String, primaryKey: Int64) {
        let layout = entity.frozenSlots?.layout
        self.init(entity: entity, store: StoreToken(identifier: storeIdentifier, keeping: layout ?? entity), primaryKey: primaryKey)
    }

    private static let temporaryCounter = Atomic<UInt64>(0)

    package static func makeTemporary(for entity: EntityDescription) -> ManagedObjectID {
        let number = temporaryCounter.add(1, ordering: .relaxed).newValue
        return ManagedObjectID(entity: entity, temporary: number)
    }

    private init(entity: EntityDescription, temporary number: UInt64) {
        entityReference = entity
        owner = .model(entity.frozenSlots?.layout ?? entity)
        reference = .temporary(number)
    }

    /// The identifier of the store that holds the object; `nil` while temporary.
    public var storeIdentifier: String? {
        if case .store(let store) = owner { return store.identifier }
        return nil
    }

    /// The store's identity as the ID carries it; `nil` while temporary.
    package var storeToken: StoreToken? {
        if case .store(let store) = owner { return store }
        return nil
    }

    /// Whether the ID is temporary: the object has not been saved yet.
    public var isTemporaryID: Bool {
        if case .temporary = reference { return true }
        return false
    }

    /// The row's primary key (`Z_PK`), or `nil` for a temporary ID.
    public var primaryKey: Int64? {
        if case .permanent(let key) = reference { return key }
        return nil
    }

    /// A URI that names this object, in Core Data's form:
    /// `x-coredata://<store UUID>/<Entity>/p<primary key>` (temporary: `x-coredata:///<Entity>/t<n>`).
    public func uriRepresentation() -> URL {
        switch reference {
        case .permanent(let key):
            return URL(string: "x-coredata://\(storeIdentifier ?? "")/\(entity.name)/p\(key)")!
        case .temporary(let number):
            return URL(string: "x-coredata:///\(entity.name)/t\(number)")!
        }
    }

    public static func == (lhs: ManagedObjectID, rhs: ManagedObjectID) -> Bool {
        guard lhs.reference == rhs.reference, lhs.entityReference === rhs.entityReference else { return false }
        switch (lhs.owner, rhs.owner) {
        case let (.store(left), .store(right)): return left === right || left.identifier == right.identifier
        case (.model, .model): return true
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(entityReference))
        hasher.combine(reference)
    }

    /// A cheap hash for dictionaries keyed by object ID (the identity maps and row cache
    /// of every fetch and save): a SplitMix64 finaliser over the key and entity, mixed
    /// with the dictionary's seed. Consistent with `==`, as `hash(into:)` is.
    public func _rawHashValue(seed: Int) -> Int {
        var bits: UInt64
        switch reference {
        case .permanent(let key): bits = UInt64(bitPattern: key)
        case .temporary(let number): bits = number ^ 0x8000_0000_0000_0000
        }
        bits ^= UInt64(UInt(bitPattern: ObjectIdentifier(entityReference))) &* 0x9E37_79B9_7F4A_7C15
        return HashMixing.mix(bits, seed: seed)
    }

    public var description: String { "<\(uriRepresentation().absoluteString)>" }
}

/// A store's identity as object IDs carry it: its identifier, and what keeps its
/// model's entities alive while any of its IDs exists.
package final class StoreToken: Sendable {
    package let identifier: String
    /// A small number standing for `identifier` in this process (never 0), the same for
    /// every token of one store: lets identity maps tell stores apart without hashing
    /// the identifier.
    package let ordinal: UInt32
    private let model: any AnyObject & Sendable

    package init(identifier: String, keeping model: any AnyObject & Sendable) {
        self.identifier = identifier
        self.model = model
        ordinal = Self.ordinals.withLock { ordinals in
            if let known = ordinals[identifier] { return known }
            let next = UInt32(truncatingIfNeeded: ordinals.count + 1)
            ordinals[identifier] = next
            return next
        }
    }

    /// Every store identifier seen so far, numbered in order.
    private static let ordinals = Mutex<[String: UInt32]>([:])
}
