import Synchronization

/// Rows already rendered, by template and values: a list's page mostly shows the rows it
/// showed the last time it was loaded, and rendering one with Mustache costs about 0.1 ms
/// (its value lookups are dynamic casts), while finding it here costs a hash of its values.
///
/// The values are the whole input of the template, so a row found here is the row the
/// template would render: nothing goes stale. At most `capacity` rows are kept; when it is
/// reached the cache starts afresh.
final class RenderedRows: Sendable {
    private struct Key: Hashable, @unchecked Sendable {
        // @unchecked Sendable: `values` is only ever made from a `Hashable & Sendable`
        // value (see `html`); AnyHashable itself cannot say so.
        let template: String
        let values: AnyHashable
    }

    let capacity: Int
    private let rows = Mutex<[Key: String]>([:])

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The HTML of `template` with `values`: the one kept, or `render`'s, then kept.
    func html<Values: Hashable & Sendable>(_ template: String, _ values: Values, render: () throws(WebError) -> String) throws(WebError) -> String {
        let key = Key(template: template, values: AnyHashable(values))
        if let html = rows.withLock({ $0[key] }) { return html }
        let html = try render()
        rows.withLock { rows in
            if rows.count >= capacity { rows.removeAll(keepingCapacity: true) }
            rows[key] = html
        }
        return html
    }

    /// How many rows are kept.
    var count: Int { rows.withLock { $0.count } }
}
