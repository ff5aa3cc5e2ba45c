import Foundation
import OpenCoreData

/// Skopelos' sort strings: comma-separated keys, each optionally followed by `:YES`
/// (ascending, also the default) or `:NO` (descending), e.g. `"lastname,firstname:NO"`.
enum SortTerms {
    /// The sort descriptors `terms` names.
    ///
    /// - Throws: `.invalidFetchRequest` naming the term for an empty term, a key with
    ///   spaces, or a direction other than `YES`/`NO` (case-insensitive). Keys the entity
    ///   does not have are reported by the fetch, with the same code.
    static func sortDescriptors(_ terms: String) throws -> [CDSortDescriptor] {
        try terms.split(separator: ",", omittingEmptySubsequences: false).map { term in
            let parts = term.split(separator: ":", omittingEmptySubsequences: false)
            let key = parts[0].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty, !key.contains(where: \.isWhitespace), parts.count <= 2 else {
                throw CoreDataError(.invalidFetchRequest, "Sort terms \"\(terms)\": \"\(term)\" is not KEY, KEY:YES or KEY:NO.", key: key)
            }
            guard parts.count == 2 else { return CDSortDescriptor(key: key, ascending: true) }
            switch parts[1].trimmingCharacters(in: .whitespaces).uppercased() {
            case "YES": return CDSortDescriptor(key: key, ascending: true)
            case "NO": return CDSortDescriptor(key: key, ascending: false)
            default:
                throw CoreDataError(.invalidFetchRequest, "Sort terms \"\(terms)\": the direction of \"\(key)\" is \"\(parts[1])\"; use YES (ascending) or NO (descending).", key: key)
            }
        }
    }
}
