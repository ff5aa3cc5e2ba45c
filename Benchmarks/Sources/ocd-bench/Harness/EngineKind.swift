/// The storage engines compared by the benchmark.
enum EngineKind: String, CaseIterable, Sendable {
    case raw
    case grdbRecord = "grdb-record"
    case grdbRow = "grdb-row"
    /// OpenCoreData through typed `@Managed` subclasses, as the README teaches.
    case ocdTyped = "ocd-typed"
    /// OpenCoreData through `value(forKey:)` / `setValue(_:forKey:)`.
    case ocdKVC = "ocd-kvc"
    /// `ocd-typed` with a consumer of the context's change sets attached (what undo and
    /// fetched results controllers will cost): W1 and W4 only.
    case ocdObserved = "ocd-observed"
    /// `ocd-typed` with a `CDUndoManager` attached to the context: W1 and W4 only.
    case ocdUndo = "ocd-undo"

    /// The engine's implementation.
    func makeEngine() -> any BenchEngine {
        switch self {
        case .raw: return RawEngine()
        case .grdbRecord: return GRDBRecordEngine()
        case .grdbRow: return GRDBRowEngine()
        case .ocdTyped: return OCDEngine<OCDTypedFlat>()
        case .ocdKVC: return OCDEngine<OCDKVCFlat>()
        case .ocdObserved: return OCDEngine<OCDTypedFlat>(observesChanges: true)
        case .ocdUndo: return OCDEngine<OCDTypedFlat>(recordsUndo: true)
        }
    }

    /// The OpenCoreData engines, typed first: targets are judged on the first that ran.
    static let openCoreData: [EngineKind] = [.ocdTyped, .ocdKVC]
}
