/// The timed workloads, as the README's table describes them.
enum Workload: String, CaseIterable, Sendable {
    case w1 = "W1", w2 = "W2", w3 = "W3", w4 = "W4", w5 = "W5", w6 = "W6", w6r = "W6R", w7 = "W7"
    case w8 = "W8", w9 = "W9", w10 = "W10", w11 = "W11", w12 = "W12"

    var title: String {
        switch self {
        case .w1: "insert N + save"
        case .w2: "fetch N, read all attributes"
        case .w3: "filtered sorted fetch, limit 50"
        case .w4: "change 10% + save"
        case .w5: "delete 10% + save"
        case .w6: "open, fetch N faults, touch 1%"
        case .w6r: "open, fetchResults N keys, touch 1%"
        case .w7: "cascade-delete 10,000-item subtree"
        case .w8: "CONTAINS[c] OR CONTAINS[c], sorted, limit 50"
        case .w9: "ANY children.title BEGINSWITH, sorted"
        case .w10: "fetchBatchSize 20 walk over 10 N rows"
        case .w11: "batch delete N"
        case .w12: "context delete N + save"
        }
    }

    /// The largest acceptable `ocd / raw` time ratio (nil: reported without a target),
    /// judged on `ocd-typed` (on `ocd-kvc` where typed accessors play no part).
    var targetRatio: Double? {
        switch self {
        case .w1, .w2, .w3, .w6, .w6r, .w8, .w9: 1.5
        case .w4, .w5: 1.3
        case .w7, .w10, .w11, .w12: nil
        }
    }

    /// The most peak memory OpenCoreData may use, in MiB (nil: no memory target).
    var targetPeakMiB: Double? { self == .w10 ? 64 : nil }

    /// Whether the workload uses the nested-list `Item` model instead of `Flat`.
    var usesItemTree: Bool { self == .w7 || self == .w9 }

    /// Whether the prepared database holds the `Flat` rows (all but W1 and the `Item` ones).
    var needsFlatRows: Bool { self != .w1 && !usesItemTree }

    /// How many `Flat` rows the prepared database holds for `rows` = N.
    func flatRowCount(_ rows: Int) -> Int { self == .w10 ? rows * 10 : rows }

    /// Engines that run the workload. W7 compares OpenCoreData with raw SQL only; W9's
    /// `Item` table has no GRDB record type, so GRDB runs it the row way only. W7, W9
    /// (the `Item` model) and W11 (no objects) read no `Flat` accessors: `ocd-kvc` only.
    func runs(on engine: EngineKind) -> Bool {
        switch self {
        case _ where engine == .ocdObserved || engine == .ocdUndo: self == .w1 || self == .w4
        case .w7: engine == .raw || engine == .ocdKVC
        case .w9: engine != .grdbRecord && engine != .ocdTyped
        case .w11: engine != .ocdTyped
        default: true
        }
    }
}
