import Foundation

/// How strings order under each sort selector — one Swift function that in-memory sorts
/// and the SQLite store (through collations registered on the connection) both call, so
/// the two orders agree.
package enum StringOrdering {
    /// How `lhs` and `rhs` order under `selector`. `.compare` orders by UTF-8 bytes, as
    /// `ValueComparison` does; the others compare as their selector does and report
    /// strings it finds equal ("a" and "A" under `.caseInsensitiveCompare`) as
    /// `.orderedSame`, as `NSSortDescriptor.compare(_:to:)` does. Fetches then keep such
    /// strings in store order (primary key: the SQL query's last ORDER BY term, the
    /// in-memory store's stable sort), as with any other tie.
    package static func compare(_ lhs: String, _ rhs: String, _ selector: CDSortDescriptor.Selector) -> ComparisonResult {
        switch selector {
        case .compare:
            return bytes(lhs, rhs)
        case .caseInsensitiveCompare:
            return bytes(StringMatching.fold(lhs, .caseInsensitive), StringMatching.fold(rhs, .caseInsensitive))
        case .localizedCompare:
            return lhs.compare(rhs, options: [], range: nil, locale: Locale.current)
        case .localizedCaseInsensitiveCompare:
            return folded(lhs).compare(folded(rhs), options: [], range: nil, locale: Locale.current)
        case .localizedStandardCompare:
            return folded(lhs).compare(folded(rhs), options: [.numeric, .widthInsensitive], range: nil, locale: Locale.current)
        }
    }

    /// Case folded before the locale comparison: Foundation's own case-insensitive option
    /// is not transitive on Linux for some strings (`"EßA"` vs `"éßé"`), and a sort needs
    /// a consistent order so that SQL and memory agree.
    private static func folded(_ text: String) -> String { StringMatching.fold(text, .caseInsensitive) }

    private static func bytes(_ lhs: String, _ rhs: String) -> ComparisonResult {
        ValueComparison.order(.string(lhs), .string(rhs)) ?? .orderedSame
    }
}
