import Foundation
import Synchronization

/// The identity of a managed object: its entity, its store and its primary key.
///
/// An object inserted into a context has a temporary ID until it is saved (or
/// `obtainPermanentIDs(for:)` is called); from then on its ID is permanent and can be
/// passed between contexts and threads (`ManagedObjectID` is `Sendable`) or archived
/// through `uriRepresentation()` and looked up again with
/// `PersistentStoreCoordinator.managedObjectID(forURIRepresentation:)`.
///
/// An ID is a plain 16-byte value, copied without reference counting: the key, a number
/// standing for the store's identifier and a number standing for the entity of its model.
/// Two IDs are equal when they name the same row of the same store (by its identifier,
/// so IDs of one file opened by two coordinators compare equal) through the same entity
/// of the same model instance: IDs made with two separately built models of equal shape
/// differ, as their `entity` objects do.
public struct ManagedObjectID: Hashable, Sendable, CustomStringConvertible {
    /// The primary key (`Z_PK`) of a permanent ID; the temporary number of a temporary one.
    package let key: Int64
    /// The store's number (`StoreNumbers`); 0 for a temporary ID.
    package let store: UInt32
    /// The entity's serial (`EntityRegistry`): `EntitySlots.serial`, or the serial of an
    /// entity used before its model was frozen.
    package let entitySerial: UInt32

    package init(entity: EntityDescription, store: UInt32, primaryKey: Int64) {
        self.init(entitySerial: entity.objectIDSerial, store: store, key: primaryKey)
    }

    /// A permanent ID for a store known only by its identifier (for tests and archives).
    package init(entity: EntityDescription, storeIdentifier: String, primaryKey: Int64) {
        self.init(entity: entity, store: StoreNumbers.number(for: storeIdentifier), primaryKey: primaryKey)
    }

    private init(entitySerial: UInt32, store: UInt32, key: Int64) {
        self.key = key
        self.store = store
        self.entitySerial = entitySerial
    }

    private static let temporaryCounter = Atomic<Int64>(0)

    package static func makeTemporary(for entity: EntityDescription) -> ManagedObjectID {
        let number = temporaryCounter.add(1, ordering: .relaxed).newValue
        return ManagedObjectID(entitySerial: entity.objectIDSerial, store: 0, key: number)
    }

    /// The entity of the object (always the concrete entity, never an abstract parent).
    public var entity: EntityDescription { EntityRegistry.entity(entitySerial) }

    /// The identifier of the store that holds the object; `nil` while temporary.
    public var storeIdentifier: String? {
        isTemporaryID ? nil : StoreNumbers.identifier(of: store)
    }

    /// Whether the ID is temporary: the object has not been saved yet.
    public var isTemporaryID: Bool { store == 0 }

    /// The row's primary key (`Z_PK`), or `nil` for a temporary ID.
    public var primaryKey: Int64? { isTemporaryID ? nil : key }

    /// A URI that names this object, in Core Data's form:
    /// `x-coredata://<store UUID>/<Entity>/p<primary key>` (temporary: `x-coredata:///<Entity>/t<n>`).
    public func uriRepresentation() -> URL {
        if isTemporaryID {
            return URL(string: "x-coredata:///\(entity.name)/t\(key)")!
        }
        return URL(string: "x-coredata://\(StoreNumbers.identifier(of: store))/\(entity.name)/p\(key)")!
    }

    public static func == (lhs: ManagedObjectID, rhs: ManagedObjectID) -> Bool {
        lhs.key == rhs.key && lhs.store == rhs.store && lhs.entitySerial == rhs.entitySerial
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(store)
        hasher.combine(entitySerial)
    }

    /// A cheap hash for dictionaries keyed by object ID (the identity maps and row cache
    /// of every fetch and save): a SplitMix64 finaliser over the fields, mixed with the
    /// dictionary's seed. Consistent with `==`, as `hash(into:)` is.
    public func _rawHashValue(seed: Int) -> Int {
        HashMixing.mix(UInt64(bitPattern: key) ^ ((UInt64(store) << 32 | UInt64(entitySerial)) &* 0x9E37_79B9_7F4A_7C15), seed: seed)
    }

    public var description: String { "<\(uriRepresentation().absoluteString)>" }
}
