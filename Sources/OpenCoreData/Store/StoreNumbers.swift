/// Process-wide small numbers for store identifiers, the store part of every
/// `ManagedObjectID`: one number per identifier (never 0, which marks a temporary ID),
/// the same for every store opened on one file, so that IDs of its rows compare equal
/// across coordinators, as they do in Core Data.
enum StoreNumbers {
    private struct Table {
        var numbers: [String: UInt32] = [:]
        /// Identifiers by number; index 0 is a placeholder for temporary IDs.
        var identifiers: [String] = [""]
    }

    private static let table = SanitizedMutex(Table())

    /// The number standing for `identifier`, assigned on first use.
    static func number(for identifier: String) -> UInt32 {
        table.withLock { table in
            if let known = table.numbers[identifier] { return known }
            let number = UInt32(table.identifiers.count)
            table.numbers[identifier] = number
            table.identifiers.append(identifier)
            return number
        }
    }

    /// The identifier `number` stands for; `number` must come from `number(for:)`.
    static func identifier(of number: UInt32) -> String {
        table.withLock { $0.identifiers[Int(number)] }
    }
}
