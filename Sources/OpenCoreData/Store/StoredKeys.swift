import Foundation

/// The identities of a fetch's matching rows, in order, stored compactly: one `Int64`
/// primary key per row, plus an entity number per row only when rows of several
/// entities (sub-entities) matched, and a store per row only when several stores did.
/// A million rows of one store take 8 MB, not a million objects.
struct StoredKeys {
    /// The store the keys belong to, to turn them back into object IDs.
    let token: StoreToken
    private(set) var primaryKeys: [Int64] = []
    /// Empty while every row so far has `firstEntityNumber`.
    private var entityNumbers: [Int32] = []
    private var firstEntityNumber: Int32 = 0
    /// Per row, once a row of another store than `token`'s was appended: the store of
    /// each (nil: `token`). Rows past its end are `token`'s.
    private var tokens: [StoreToken?] = []

    init(token: StoreToken) {
        self.token = token
    }

    /// The keys of `ids`, saved objects of one or several stores, in order.
    init(ids: [ManagedObjectID], token: StoreToken) {
        self.token = token
        for id in ids { append(primaryKey: id.primaryKey ?? 0, entityNumber: Int32(id.entity.slots.number), store: id.storeToken) }
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

    /// Appends a row of `store`, which may be another store than `token`'s.
    mutating func append(primaryKey: Int64, entityNumber: Int32, store: StoreToken?) {
        let other = store.flatMap { $0 === token ? nil : $0 }
        if other != nil || !tokens.isEmpty {
            // Rows appended without a store so far are `token`'s.
            tokens += repeatElement(nil, count: primaryKeys.count - tokens.count)
            tokens.append(other)
        }
        append(primaryKey: primaryKey, entityNumber: entityNumber)
    }

    func entityNumber(at index: Int) -> Int32 {
        entityNumbers.isEmpty ? firstEntityNumber : entityNumbers[index]
    }

    /// The object ID of the row at `index`.
    func objectID(at index: Int, layout: ModelLayout) -> ManagedObjectID {
        ManagedObjectID(entity: layout.entitiesByNumber[Int(entityNumber(at: index))]!, store: (index < tokens.count ? tokens[index] : nil) ?? token, primaryKey: primaryKeys[index])
    }
}
