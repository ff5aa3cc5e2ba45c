import Foundation
import OpenCoreData

/// The model every torture mode writes, shared with the tests that check the store.
///
/// - `Record`: one row of a saved batch (`batch`, `position`, `checksum`, `payload`).
/// - `Ledger`: a single row updated by every batch (`lastBatch`, `records`), so each
///   save is an insert plus an update in one transaction.
/// - `Counter`: a single `value` incremented by concurrent processes.
/// - `Item`: a tree (`title`, `group`, `parent`, `children` with the cascade rule).
enum TortureModel {
    static func make() -> ManagedObjectModel {
        let record = EntityDescription(name: "Record", properties: [
            AttributeDescription(name: "batch", type: .integer64, isOptional: false, defaultValue: Int64(0)),
            AttributeDescription(name: "position", type: .integer64, isOptional: false, defaultValue: Int64(0)),
            AttributeDescription(name: "checksum", type: .integer64, isOptional: false, defaultValue: Int64(0)),
            AttributeDescription(name: "payload", type: .string),
        ])
        let ledger = EntityDescription(name: "Ledger", properties: [
            AttributeDescription(name: "lastBatch", type: .integer64, isOptional: false, defaultValue: Int64(0)),
            AttributeDescription(name: "records", type: .integer64, isOptional: false, defaultValue: Int64(0)),
        ])
        let counter = EntityDescription(name: "Counter", properties: [
            AttributeDescription(name: "value", type: .integer64, isOptional: false, defaultValue: Int64(0)),
        ])
        let item = EntityDescription(name: "Item", properties: [
            AttributeDescription(name: "title", type: .string, isOptional: false, defaultValue: ""),
            AttributeDescription(name: "group", type: .string),
        ])
        let parent = RelationshipDescription(name: "parent", destination: item, deleteRule: .nullify)
        let children = RelationshipDescription(name: "children", destination: item, toMany: true, deleteRule: .cascade)
        parent.setInverse(children)
        item.properties += [parent, children]
        return ManagedObjectModel(entities: [record, ledger, counter, item])
    }

    /// The checksum stored in a record: a mix of its batch and position, so a row that is
    /// torn or from another batch does not match.
    static func checksum(batch: Int64, position: Int64) -> Int64 {
        var z = UInt64(bitPattern: batch) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(bitPattern: position)
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int64(bitPattern: (z ^ (z >> 31)) >> 1)
    }

    /// A payload whose length varies with the batch, so pages fill and split unevenly.
    static func payload(batch: Int64, position: Int64) -> String {
        String(repeating: "p", count: Int((batch &* 31 &+ position) % 200 + 1))
    }
}
