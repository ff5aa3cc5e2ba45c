import Foundation

/// The identities of a fetch's matching rows, in order, stored compactly: one `Int64`
/// primary key per row, plus an entity number per row only when rows of several
/// entities (sub-entities) matched, and a store per row only when several stores did.
/// A million rows of one store take 8 MB, not a million objects.
struct StoredKeys {
    /// The number of the store the keys belong to (`ManagedObjectID.store`), to turn them
    /// back into object IDs.
    let store: UInt32
    private(set) var primaryKeys: [Int64] = []
    /// Empty while every row so far has `firstEntityNumber`.
    private var entityNumbers: [Int32] = []
    private var firstEntityNumber: Int32 = 0
    /// Per row, once a row of another store than `store` was appended: the store number
    /// of each (0: `store`). Rows past its end are `store`'s.
    private var stores: [UInt32] = []

    init(store: UInt32) {
        self.store = store
    }

    /// The keys of `ids`, saved objects of one or several stores, in order.
    init(ids: [ManagedObjectID], store: UInt32) {
        self.store = store
        for id in ids { append(primaryKey: id.primaryKey ?? 0, entityNumber: Int32(id.entity.slots.number), store: id.store) }
    }

    var count: Int { primaryKeys.count }

    mutating func append(primaryKey: Int64, entityNumber: Int32) {
        if primaryKeys.isEmpty {
            firstEntityNumber = entityNumber
        } else if entityNumbers.isEmpty && entityNumber != firstEntityNumber {
            entityNumbers = Array(repeating: firstEntityNumber, count: primaryKeys.count)
        }
        if !entityNumbers.isEmpty { entityNumbers.append(entityNumber) }
        primaryKeys.append(primaryKey)
    }

    /// Appends a row of the store numbered `rowStore`, which may be another store than
    /// `store` (0: `store`).
    mutating func append(primaryKey: Int64, entityNumber: Int32, store rowStore: UInt32) {
        let other = rowStore == store ? 0 : rowStore
        if other != 0 || !stores.isEmpty {
            // Rows appended without a store so far are `store`'s.
            stores += repeatElement(0, count: primaryKeys.count - stores.count)
            stores.append(other)
        }
        append(primaryKey: primaryKey, entityNumber: entityNumber)
    }

    func entityNumber(at index: Int) -> Int32 {
        entityNumbers.isEmpty ? firstEntityNumber : entityNumbers[index]
    }

    /// The object ID of the row at `index`.
    func objectID(at index: Int, layout: ModelLayout) -> ManagedObjectID {
        let rowStore = index < stores.count ? stores[index] : 0
        return ManagedObjectID(entity: layout.entitiesByNumber[Int(entityNumber(at: index))]!, store: rowStore == 0 ? store : rowStore, primaryKey: primaryKeys[index])
    }
}
