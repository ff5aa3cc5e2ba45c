/// Every child's report of one benchmark run, and what the report needs from them.
struct Results {
    private(set) var reports: [Workload: [EngineKind: [ChildReport]]] = [:]
    private(set) var errors: [Workload: [EngineKind: String]] = [:]

    mutating func add(_ report: ChildReport, workload: Workload, engine: EngineKind) {
        reports[workload, default: [:]][engine, default: []].append(report)
    }

    mutating func fail(_ message: String, workload: Workload, engine: EngineKind) {
        errors[workload, default: [:]][engine] = message
    }

    func reports(_ workload: Workload, _ engine: EngineKind) -> [ChildReport] {
        reports[workload]?[engine] ?? []
    }

    func error(_ workload: Workload, _ engine: EngineKind) -> String? {
        errors[workload]?[engine]
    }

    /// The median of the timed seconds over passes.
    func medianSeconds(_ workload: Workload, _ engine: EngineKind) -> Double? {
        Self.median(reports(workload, engine).map(\.seconds))
    }

    /// The highest peak RSS over passes, in MiB.
    func peakMiB(_ workload: Workload, _ engine: EngineKind) -> Double? {
        reports(workload, engine).compactMap(\.peakMiB).max()
    }

    /// Every report, in workload and engine order.
    var allReports: [(workload: Workload, engine: EngineKind, report: ChildReport)] {
        Workload.allCases.flatMap { workload in
            EngineKind.allCases.flatMap { engine in
                reports(workload, engine).map { (workload, engine, $0) }
            }
        }
    }

    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
