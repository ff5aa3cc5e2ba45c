import Foundation
@testable import OpenCoreData

/// Counts what a fault-injection loop did, for its printed summary.
struct FaultTally: CustomStringConvertible {
    private(set) var runs = 0
    private(set) var faults = 0
    private(set) var typedErrors = 0
    private(set) var absorbed = 0
    private(set) var codes: [String: Int] = [:]

    mutating func count(faults: Int, _ result: Result<some Any, any Error>) {
        runs += 1
        self.faults += faults
        switch result {
        case .success: if faults > 0 { absorbed += 1 }
        case .failure(let error):
            typedErrors += error is CoreDataError ? 1 : 0
            let name = (error as? CoreDataError).map { "\($0.code.name)/\($0.sqliteResultCode.map(String.init) ?? "-")" } ?? "untyped"
            codes[name, default: 0] += 1
        }
    }

    var description: String {
        let codeList = codes.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" }.joined(separator: ", ")
        return "\(runs) runs, \(faults) faults injected, \(typedErrors) typed errors, \(absorbed) absorbed by SQLite; codes: \(codeList)"
    }
}
