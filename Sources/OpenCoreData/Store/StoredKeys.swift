import Foundation

/// The identities of a fetch's matching rows, in order, stored compactly: one `Int64`
/// primary key per row, plus an entity number per row only when rows of several
/// entities (sub-entities) matched. A million rows take 8 MB, not a million objects.
struct StoredKeys {
    /// The store the keys belong to, to turn them back into object IDs.
    let token: StoreToken
    private(set) var primaryKeys: [Int64] = []
    /// Empty while every row so far has `firstEntityNumber`.
    private var entityNumbers: [Int32] = []
    private var firstEntityNumber: Int32 = 0

    init(token: StoreToken) {
        self.token = token
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

    func entityNumber(at index: Int) -> Int32 {
        entityNumbers.isEmpty ? firstEntityNumber : entityNumbers[index]
    }

    /// The object ID of the row at `index`.
    func objectID(at index: Int, layout: ModelLayout) -> ManagedObjectID {
        ManagedObjectID(entity: layout.entitiesByNumber[Int(entityNumber(at: index))]!, store: token, primaryKey: primaryKeys[index])
    }
}
