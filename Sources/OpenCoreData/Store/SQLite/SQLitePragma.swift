import Foundation

/// The pragmas `PersistentStoreOption.sqlitePragmas` may set, each with the values it
/// accepts: names and values are never pasted into SQL unless they are on this list.
enum SQLitePragma {
    private enum Values {
        case keywords(Set<String>)
        case integer
        case boolean
        case pageSize
    }

    private static let allowed: [String: Values] = [
        "journal_mode": .keywords(["DELETE", "TRUNCATE", "PERSIST", "MEMORY", "WAL", "OFF"]),
        "synchronous": .keywords(["OFF", "NORMAL", "FULL", "EXTRA", "0", "1", "2", "3"]),
        "locking_mode": .keywords(["NORMAL", "EXCLUSIVE"]),
        "temp_store": .keywords(["DEFAULT", "FILE", "MEMORY", "0", "1", "2"]),
        "auto_vacuum": .keywords(["NONE", "FULL", "INCREMENTAL", "0", "1", "2"]),
        "secure_delete": .keywords(["FAST", "ON", "OFF", "TRUE", "FALSE", "YES", "NO", "0", "1"]),
        "cache_size": .integer,
        "mmap_size": .integer,
        "wal_autocheckpoint": .integer,
        "journal_size_limit": .integer,
        "cache_spill": .integer,
        "cell_size_check": .boolean,
        "automatic_index": .boolean,
        "page_size": .pageSize,
    ]

    /// `raw` as the text to put after `PRAGMA name =`, or `.storeOpenFailed` when the
    /// name is not allowed or the value does not fit it.
    static func checkedValue(_ raw: any Sendable, for name: String) throws -> String {
        let key = PersistentStoreOption.sqlitePragmas
        guard let kind = allowed[name.lowercased()] else {
            throw CoreDataError(.storeOpenFailed,
                "The pragma '\(name)' in \(key) is not supported; allowed: \(allowed.keys.sorted().joined(separator: ", ")).", key: key)
        }
        let value: String
        switch raw {
        case let text as String: value = text.uppercased()
        case let flag as Bool: value = flag ? "1" : "0"
        case let number as Int: value = String(number)
        default:
            throw CoreDataError(.storeOpenFailed, "The value of pragma '\(name)' in \(key) must be a String.", key: key)
        }
        let fits: Bool
        switch kind {
        case .keywords(let words): fits = words.contains(value)
        case .integer: fits = Int64(value) != nil
        case .boolean: fits = ["0", "1", "ON", "OFF", "TRUE", "FALSE", "YES", "NO"].contains(value)
        case .pageSize: fits = Int(value).map { (512...65536).contains($0) && $0 & ($0 - 1) == 0 } ?? false
        }
        guard fits else {
            throw CoreDataError(.storeOpenFailed, "The value '\(raw)' is not allowed for pragma '\(name)' in \(key).", key: key)
        }
        return value
    }
}
