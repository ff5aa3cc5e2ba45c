/// The storage engines compared by the benchmark.
enum EngineKind: String, CaseIterable, Sendable {
    case raw
    case grdbRecord = "grdb-record"
    case grdbRow = "grdb-row"
    case ocd

    /// The engine's implementation.
    func makeEngine() -> any BenchEngine {
        switch self {
        case .raw: return RawEngine()
        case .grdbRecord: return GRDBRecordEngine()
        case .grdbRow: return GRDBRowEngine()
        case .ocd: return OCDEngine()
        }
    }
}
