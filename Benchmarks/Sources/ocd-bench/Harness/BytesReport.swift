import Foundation
import OpenCoreData

/// Heap bytes per object (`HeapInUse`): N `Flat` rows held as plain structs, as loaded
/// managed objects, as faults and as `FetchResults` keys. Measured in one child process
/// on the W2 fixture, each OpenCoreData figure with a fresh coordinator (its own
/// connection and row cache), after a keys-only scan has filled SQLite's page cache
/// (bounded, so it does not grow during the measured fetch).
struct BytesReport: Codable, Sendable {
    static let linePrefix = "OCDBENCH-BYTES "

    var rows: Int
    /// `FlatValues` read with the SQLite C API into an array.
    var plainStruct: Double
    var typedLoaded: Double
    var kvcLoaded: Double
    var typedFault: Double
    var kvcFault: Double
    /// Per element of a `FetchResults` nobody has read.
    var key: Double

    /// The plain `ManagedObject` figures come first: once `Flat` is registered, every
    /// object of the entity is a `Flat`, however it is fetched.
    static func measure(path: String, rows: Int) throws -> BytesReport {
        let plainStruct = try structs(path: path, rows: rows)
        let kvcLoaded = try objects(OCDKVCFlat.self, path: path, rows: rows) { try $0.fetch($1) }
        let kvcFault = try objects(OCDKVCFlat.self, path: path, rows: rows, asFaults: true) { try $0.fetch($1) }
        let key = try objects(OCDKVCFlat.self, path: path, rows: rows, asFaults: true) { try $0.fetchResults($1) }
        OCDTypedFlat.setUp()
        return BytesReport(
            rows: rows, plainStruct: plainStruct,
            typedLoaded: try objects(OCDTypedFlat.self, path: path, rows: rows) { try $0.fetch($1) },
            kvcLoaded: kvcLoaded,
            typedFault: try objects(OCDTypedFlat.self, path: path, rows: rows, asFaults: true) { try $0.fetch($1) },
            kvcFault: kvcFault, key: key
        )
    }

    /// The structs every other engine reads rows into, from their own connection.
    private static func structs(path: String, rows: Int) throws -> Double {
        let db = try SQLiteConnection(path: path)
        let select = try db.prepare(Schema.selectAllFlat)
        while try select.step() {}
        select.reset()
        return try HeapInUse.perItem(rows) { () throws -> [FlatValues] in
            var values: [FlatValues] = []
            while try select.step() { values.append(select.flatRow().values) }
            return values
        }
    }

    /// What `fetch` keeps alive for the `Flat` rows: loaded objects, or pure faults
    /// (`includesPropertyValues` false) when `asFaults`.
    private static func objects<Access: OCDFlatAccess, Result>(
        _ access: Access.Type, path: String, rows: Int, asFaults: Bool = false,
        _ fetch: (ManagedObjectContext, FetchRequest<Access.Object>) throws -> Result
    ) throws -> Double {
        let stack = try OCDStack(model: OCDModels.flat(), path: path)
        return try stack.context.performAndWait {
            _ = try stack.context.fetchResults(Access.request(asFaults: true))
            let request = Access.request(asFaults: asFaults)
            request.includesPropertyValues = !asFaults
            return try HeapInUse.perItem(rows) { try fetch(stack.context, request) }
        }
    }

    func line() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Self.linePrefix + String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    static func parse(output: String) -> BytesReport? {
        for line in output.split(separator: "\n") where line.hasPrefix(linePrefix) {
            return try? JSONDecoder().decode(BytesReport.self, from: Data(line.dropFirst(linePrefix.count).utf8))
        }
        return nil
    }

    /// The most heap a loaded object may take, as a multiple of the plain struct's.
    static let targetRatio = 2.0

    /// Part (d) of the report.
    func render() -> String {
        func row(_ name: String, _ bytes: Double, target: Bool = false) -> String {
            let ratio = bytes / plainStruct
            let verdict = target ? "≤ \(Int(Self.targetRatio))× " + (ratio <= Self.targetRatio ? "✅" : "❌") : ""
            return "| \(name) | \(String(format: "%.0f", bytes)) | \(String(format: "%.2f", ratio))× | \(verdict) |"
        }
        return [
            "## Heap bytes per object (\(rows) `Flat` rows; mallinfo2 in-use delta / N)",
            "",
            "| held as | bytes each | × struct | target |",
            "|---|---:|---:|---|",
            row("plain struct `FlatValues` (raw SQLite read)", plainStruct),
            row("ocd-typed loaded object (`fetch`)", typedLoaded, target: true),
            row("ocd-kvc loaded object (`fetch`)", kvcLoaded),
            row("ocd-typed fault (`fetch`, no property values)", typedFault),
            row("ocd-kvc fault (`fetch`, no property values)", kvcFault),
            row("`FetchResults` element not yet read", key),
        ].joined(separator: "\n")
    }
}
