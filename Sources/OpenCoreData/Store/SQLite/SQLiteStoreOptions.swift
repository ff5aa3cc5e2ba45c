import Foundation

/// The options of `addPersistentStore` that the SQLite store understands, parsed and
/// checked once (see `PersistentStoreOption`). A value of the wrong type, an unknown
/// pragma or a pragma value outside its allow-list throws `.storeOpenFailed` naming the key.
struct SQLiteStoreOptions {
    /// Pragmas to run at open, in the order they must run (page size and auto-vacuum
    /// before the journal mode, which must precede the schema).
    var pragmas: [(name: String, value: String)]
    var readOnly = false
    /// The busy timeout, in seconds.
    var timeout = 5.0
    var verifiesOnOpen = false
    /// Whether saves and batch requests record persistent history
    /// (`PersistentStoreOption.persistentHistoryTracking`).
    var tracksHistory = false

    /// The pragmas every store gets unless the options say otherwise: a WAL journal with
    /// full sync.
    static let defaultPragmas = ["journal_mode": "WAL", "synchronous": "FULL"]

    init(_ options: [String: any Sendable]?) throws {
        let options = options ?? [:]
        var pragmas = Self.defaultPragmas
        if let value = options[PersistentStoreOption.sqlitePragmas] {
            guard let given = value as? [String: any Sendable] else {
                throw Self.wrongType(PersistentStoreOption.sqlitePragmas, "a [String: String] dictionary of pragma names and values")
            }
            for (name, raw) in given {
                pragmas[name.lowercased()] = try SQLitePragma.checkedValue(raw, for: name)
            }
        }
        let order = ["page_size", "auto_vacuum", "journal_mode"]
        self.pragmas = pragmas.sorted { lhs, rhs in
            let left = order.firstIndex(of: lhs.key) ?? order.count, right = order.firstIndex(of: rhs.key) ?? order.count
            return left != right ? left < right : lhs.key < rhs.key
        }.map { (name: $0.key, value: $0.value) }
        readOnly = try Self.bool(options, PersistentStoreOption.readOnly) ?? false
        verifiesOnOpen = try Self.bool(options, PersistentStoreOption.verifiesOnOpen) ?? false
        tracksHistory = try Self.bool(options, PersistentStoreOption.persistentHistoryTracking) ?? false
        if let value = options[PersistentStoreOption.timeout] {
            guard let seconds = (value as? Double) ?? (value as? Int).map(Double.init), seconds >= 0, seconds.isFinite else {
                throw Self.wrongType(PersistentStoreOption.timeout, "a number of seconds, 0 or more")
            }
            timeout = min(seconds, Self.longestTimeout)
        }
    }

    /// The longest busy timeout `sqlite3_busy_timeout` takes (Int32 milliseconds, ~24 days).
    private static let longestTimeout = Double(Int32.max) / 1000

    /// The busy timeout in whole milliseconds, as `sqlite3_busy_timeout` takes it.
    var timeoutMilliseconds: Int32 { Int32((timeout * 1000).rounded(.down)) }

    /// A `Bool` option's value, nil when absent; `.storeOpenFailed` naming the key when it is
    /// not a `Bool`. Also used for the options every store kind reads (remote changes).
    static func bool(_ options: [String: any Sendable], _ key: String) throws -> Bool? {
        guard let value = options[key] else { return nil }
        guard let flag = value as? Bool else { throw wrongType(key, "a Bool") }
        return flag
    }

    private static func wrongType(_ key: String, _ expected: String) -> CoreDataError {
        CoreDataError(.storeOpenFailed, "The store option \(key) must be \(expected).", key: key)
    }
}
