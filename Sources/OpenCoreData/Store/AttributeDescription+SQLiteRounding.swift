import Foundation

/// Values as a save into the SQLite store gives them back, so that the in-memory store
/// (which keeps them this way) answers exactly as SQLite does. The file format is Core
/// Data's, whose store rounds the same way:
///
/// - Doubles, floats and dates are REALs; SQLite keeps a whole-number REAL as an integer,
///   so `-0.0` comes back `+0.0` (every other value comes back unchanged).
/// - Decimals are bound as text into a DECIMAL column (NUMERIC affinity, see
///   `sqlValue(for:)`): a whole number that fits 64 bits stays exact; any other decimal is
///   stored as a double — SQLite's own conversion of the text (`SQLiteTextToReal`), not
///   always the nearest — and read back as that double's shortest decimal form
///   (`value(from:)`), so only about 15–17 significant digits survive: a 38-digit
///   `Decimal` comes back rounded, `1e40` as `1e40` but `0.1000000000000000000001` as `0.1`.
extension AttributeDescription {
    /// `value` (canonical for this attribute) as the SQLite store stores and reads it.
    func valueAsSQLiteStores(_ value: SlotValue) -> SlotValue {
        Self.rounded(value) ?? value
    }

    /// The value the store gives back for `value`, or nil when it is `value` itself.
    fileprivate static func rounded(_ value: SlotValue) -> SlotValue? {
        switch value {
        case .double(let number) where number == 0 && number.sign == .minus: return .double(0.0)
        case .float(let number) where number == 0 && number.sign == .minus: return .float(0)
        case .date(let date) where date.timeIntervalSinceReferenceDate == 0 && date.timeIntervalSinceReferenceDate.sign == .minus:
            return .date(Date(timeIntervalSinceReferenceDate: 0))
        case .decimal(let number):
            guard let stored = decimalAsSQLiteStores(number), stored != number else { return nil }
            return .decimal(stored)
        default: return nil
        }
    }

    /// As `sqlValue(for:)` binds it and NUMERIC affinity converts the text: an integer
    /// literal that fits 64 bits stays an INTEGER; otherwise a REAL, an INTEGER
    /// when it is whole and strictly inside the 64-bit range; `nil` when SQLite would keep
    /// the text (not finite) or `value(from:)` could not read the REAL back.
    private static func decimalAsSQLiteStores(_ number: Decimal) -> Decimal? {
        guard number.isFinite else { return nil }
        let text = number.description
        if let integer = Int64(text) { return Decimal(integer) }
        guard let real = SQLiteTextToReal.real(text) ?? Double(text), real.isFinite else { return nil }
        if real > -9.223372036854775808e18, real < 9.223372036854775808e18, let whole = Int64(exactly: real) {
            return Decimal(whole)
        }
        return ExactNumber.double(real).decimal
    }
}

extension ContiguousArray where Element == SlotValue {
    /// Rounds the attribute values of an object of `slots`' entity as the SQLite store
    /// stores them (`AttributeDescription.valueAsSQLiteStores(_:)`). Only the values of
    /// numeric and date attributes are looked at, and only values that change are written,
    /// so an array with nothing to round is not copied.
    mutating func roundAsSQLiteStores(_ slots: EntitySlots) {
        for slot in slots.attributeSlots {
            switch slots.attributeTypes[slot] {
            case .double?, .float?, .date?, .decimal?:
                if let stored = AttributeDescription.rounded(self[slot]) { self[slot] = stored }
            default:
                continue
            }
        }
    }
}
