import Foundation

/// How strings order under each sort selector — one Swift function that in-memory sorts
/// and the SQLite store (through collations registered on the connection) both call, so
/// the two orders agree.
package enum StringOrdering {
    /// How `lhs` and `rhs` order under `selector`. `.compare` orders by UTF-8 bytes, as
    /// `ValueComparison` does; the localized selectors use Foundation's comparison with the
    /// current locale, then bytes to break ties, so the order is total.
    package static func compare(_ lhs: String, _ rhs: String, _ selector: CDSortDescriptor.Selector) -> ComparisonResult {
        let result: ComparisonResult
        switch selector {
        case .compare:
            return bytes(lhs, rhs)
        case .caseInsensitiveCompare:
            result = bytes(StringMatching.fold(lhs, .caseInsensitive), StringMatching.fold(rhs, .caseInsensitive))
        case .localizedCompare:
            result = lhs.compare(rhs, options: [], range: nil, locale: Locale.current)
        case .localizedCaseInsensitiveCompare:
            result = folded(lhs).compare(folded(rhs), options: [], range: nil, locale: Locale.current)
        case .localizedStandardCompare:
            result = folded(lhs).compare(folded(rhs), options: [.numeric, .widthInsensitive], range: nil, locale: Locale.current)
        }
        return result == .orderedSame ? bytes(lhs, rhs) : result
    }

    /// Case folded before the locale comparison: Foundation's own case-insensitive option
    /// is not transitive on Linux for some strings (`"EßA"` vs `"éßé"`), and a sort needs
    /// a consistent order so that SQL and memory agree.
    private static func folded(_ text: String) -> String { StringMatching.fold(text, .caseInsensitive) }

    private static func bytes(_ lhs: String, _ rhs: String) -> ComparisonResult {
        ValueComparison.order(.string(lhs), .string(rhs)) ?? .orderedSame
    }
}
