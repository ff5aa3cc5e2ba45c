/// One change to a live list's DOM, from a fetched results controller's callbacks: the
/// browser (`Public/live.js`) applies a batch of them in place. Rows are found by their
/// element id, sections by their `data-section` name; an inserted or moved row goes
/// before the row `before` names (at the end of its section when nil).
struct LiveOp: Encodable, Sendable, Equatable {
    enum Kind: String, Encodable, Sendable {
        case delete, insert, move, update, insertSection, deleteSection
    }

    let op: Kind
    /// The row's element id (row ops).
    var id: String?
    /// The section's name (section ops, and the section a row goes into).
    var section: String?
    /// The row's HTML (insert, move, update) or the section's empty shell (insertSection).
    var html: String?
    /// The row or section that follows, by id or name; nil for the end.
    var before: String?
}

/// A batch of live changes. (The tab's undo labels come with the answer to its own
/// action, not here: a change may be another tab's.)
struct LiveChange: Encodable, Sendable {
    let ops: [LiveOp]
}

/// A live list's whole content, sent first on every (re)connection of its event stream,
/// so that a dropped stream or a restarted server never leaves a page out of date.
struct LiveReset: Encodable, Sendable {
    let html: String
    let undo: String?
    let redo: String?
}
