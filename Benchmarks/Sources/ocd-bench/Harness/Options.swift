import Foundation

/// The user-facing command line.
struct Options {
    var passes = 5
    var rows = 100_000
    var workloads = Workload.allCases
    var engines = EngineKind.allCases
    /// Measure opening the W1 store with and without `verifiesOnOpen` instead of the workloads.
    var openCost = false
    /// Measure W13, a fetched results controller's one change against a refetch, instead of the workloads.
    var frcCost = false
    /// Measure DataAccess' writeSync of one object against a plain context save, instead of the workloads.
    var dalCost = false
    /// Measure persistent history's cost (inserts + save, a batch delete) instead of the workloads.
    var historyCost = false
    /// Measure commit → remote change notification latency across processes, and the watcher's cost.
    var remoteLatency = false
    /// `--remote-latency`: saves of the other process to time.
    var saves = 50
    /// Measure ListsKit on one long list (open, page, add, move, delete, undo) instead of the workloads.
    var listsCost = false
    /// `--lists-cost`: items in the list.
    var items = 10_000
    /// Measure heap bytes per object after the workloads (`BytesReport`).
    var measuresBytes = true

    static let usage = """
        usage: ocd-bench [--passes N] [--rows N] [--only W1,W2,...] [--engines raw,grdb-record,grdb-row,ocd-typed,ocd-kvc] [--no-bytes]
               ocd-bench --open-cost [--passes N] [--rows N]
               ocd-bench --frc-cost [--passes N] [--rows N]
               ocd-bench --dal-cost [--passes N]
               ocd-bench --history-cost [--passes N] [--rows N]
               ocd-bench --remote-latency [--saves N]
               ocd-bench --lists-cost [--passes N] [--items N]
          --passes N   timed runs per (engine, workload), median reported (default 5)
          --rows N     rows of the Flat table (default 100000)
          --only LIST  workloads to run (default all: \(Workload.allCases.map(\.rawValue).joined(separator: ",")))
          --engines L  engines to run (default all: \(EngineKind.allCases.map(\.rawValue).joined(separator: ",")))
          --no-bytes   skip the heap-bytes-per-object measurement
          --open-cost  time opening the W1 store with and without PersistentStoreOption.verifiesOnOpen
          --frc-cost   W13: one sort-key change in an N-object FetchedResultsController vs a refetch
          --dal-cost   DataAccess writeSync of one object vs a plain context save (N×200 iterations each)
          --history-cost  N inserts + save and a batch delete of N rows, with and without persistent history
          --remote-latency  another process's commit → storeRemoteChangeNotification (median, p95, max over
                       --saves N saves, default 50), and the watcher's idle and per-save cost
          --lists-cost  ListsKit on one list of --items N items (default 10000): open with the controller,
                       first page, add, move a row, delete one, undo (medians)
        """

    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    init() {}

    init(arguments: [String]) throws {
        var remaining = arguments[...]
        func value(for flag: String) throws -> String {
            guard let value = remaining.popFirst() else { throw Invalid(description: "\(flag) needs a value") }
            return value
        }
        while let flag = remaining.popFirst() {
            switch flag {
            case "--passes":
                guard let passes = Int(try value(for: flag)), passes > 0 else { throw Invalid(description: "--passes must be a positive integer") }
                self.passes = passes
            case "--rows":
                guard let rows = Int(try value(for: flag)), rows >= 1000 else { throw Invalid(description: "--rows must be an integer ≥ 1000") }
                self.rows = rows
            case "--only":
                workloads = try Self.list(try value(for: flag)) { Workload(rawValue: $0.uppercased()) }
            case "--engines":
                engines = try Self.list(try value(for: flag)) { EngineKind(rawValue: $0.lowercased()) }
            case "--no-bytes":
                measuresBytes = false
            case "--open-cost":
                openCost = true
            case "--frc-cost":
                frcCost = true
            case "--dal-cost":
                dalCost = true
            case "--history-cost":
                historyCost = true
            case "--remote-latency":
                remoteLatency = true
            case "--lists-cost":
                listsCost = true
            case "--items":
                guard let items = Int(try value(for: flag)), items >= 100 else { throw Invalid(description: "--items must be an integer ≥ 100") }
                self.items = items
            case "--saves":
                guard let saves = Int(try value(for: flag)), saves > 0 else { throw Invalid(description: "--saves must be a positive integer") }
                self.saves = saves
            case "--help", "-h":
                throw Invalid(description: "")
            default:
                throw Invalid(description: "unknown option \(flag)")
            }
        }
    }

    /// Parses a comma-separated list, keeping the canonical order of `T.allCases`.
    private static func list<T: CaseIterable & Equatable>(_ text: String, _ parse: (String) -> T?) throws -> [T] {
        var chosen: [T] = []
        for item in text.split(separator: ",") {
            let name = item.trimmingCharacters(in: .whitespaces)
            guard let value = parse(name) else { throw Invalid(description: "unknown name \(name)") }
            chosen.append(value)
        }
        return T.allCases.filter { chosen.contains($0) }
    }
}
