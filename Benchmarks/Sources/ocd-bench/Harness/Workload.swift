/// The benchmark's workloads; see README.md for what each one does and times.
enum Workload: String, CaseIterable, Sendable {
    case w1 = "W1", w2 = "W2", w3 = "W3", w4 = "W4", w5 = "W5", w6 = "W6", w7 = "W7"

    var title: String {
        switch self {
        case .w1: "insert N + save"
        case .w2: "fetch N, read all attributes"
        case .w3: "filtered sorted fetch, limit 50"
        case .w4: "change 10% + save"
        case .w5: "delete 10% + save"
        case .w6: "open, fetch N faults, touch 1%"
        case .w7: "cascade-delete 10,000-item subtree"
        }
    }

    /// The largest acceptable `ocd / raw` time ratio (nil: reported without a target).
    var targetRatio: Double? {
        switch self {
        case .w1, .w3, .w4, .w5, .w6: 1.5
        case .w2: 2
        case .w7: nil
        }
    }

    /// Whether the workload uses the nested-list `Item` model instead of `Flat`.
    var usesItemTree: Bool { self == .w7 }

    /// Whether the prepared database holds the `Flat` rows (all but W1 and W7).
    var needsFlatRows: Bool { self != .w1 && self != .w7 }

    /// Engines that run the workload (W7 compares OpenCoreData with raw SQL only).
    func runs(on engine: EngineKind) -> Bool {
        self != .w7 || engine == .raw || engine == .ocd
    }
}
