import Foundation

/// The identity map: one entry per registered object, unretained (objects unregister
/// themselves in `deinit`).
///
/// Keyed by a 16-byte digest of the object ID (entity number, store ordinal, key) rather
/// than the 32-byte ID itself: fetching or saving 100,000 objects probes this table
/// several hundred thousand times, and smaller entries mean fewer cache misses. The store
/// ordinal keeps apart rows of one entity in several stores (and IDs of another
/// coordinator's store), which may share a primary key.
struct ObjectRegistry {
    private var objects: [Key: Unmanaged<ManagedObject>] = [:]

    struct Key: Hashable {
        /// The primary key, or the temporary number with the top bit set.
        let value: UInt64
        let entity: UInt32
        /// `StoreToken.ordinal` of a permanent ID's store; 0 for a temporary ID.
        let store: UInt32

        init(_ id: ManagedObjectID) {
            switch id.reference {
            case .permanent(let key): value = UInt64(bitPattern: key) & ~(1 << 63)
            case .temporary(let number): value = number | (1 << 63)
            }
            entity = UInt32(truncatingIfNeeded: id.entity.slots.number)
            store = id.storeToken?.ordinal ?? 0
        }

        /// A SplitMix64 finaliser over the fields and the table's seed.
        func _rawHashValue(seed: Int) -> Int {
            HashMixing.mix(value ^ ((UInt64(store) << 32 | UInt64(entity)) &* 0x9E37_79B9_7F4A_7C15), seed: seed)
        }
    }

    subscript(id: ManagedObjectID) -> Unmanaged<ManagedObject>? {
        get { objects[Key(id)] }
        set { objects[Key(id)] = newValue }
    }

    @discardableResult
    mutating func removeValue(forKey id: ManagedObjectID) -> Unmanaged<ManagedObject>? {
        objects.removeValue(forKey: Key(id))
    }

    var values: Dictionary<Key, Unmanaged<ManagedObject>>.Values { objects.values }
    var count: Int { objects.count }
    mutating func reserveCapacity(_ capacity: Int) { objects.reserveCapacity(capacity) }
    mutating func removeAll() { objects.removeAll() }
}
