/// The storage engines compared by the benchmark.
enum EngineKind: String, CaseIterable, Sendable {
    case raw
    case grdbRecord = "grdb-record"
    case grdbRow = "grdb-row"
    case ocd

    /// The engine's implementation, or nil when it is not compiled in.
    func makeEngine() -> (any BenchEngine)? {
        switch self {
        case .raw: return RawEngine()
        case .grdbRecord: return GRDBRecordEngine()
        case .grdbRow: return GRDBRowEngine()
        case .ocd:
            #if OCD_ENGINE
            return OCDEngine()
            #else
            return nil
            #endif
        }
    }
}
