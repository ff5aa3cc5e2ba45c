import CFuzzerDriver
import Foundation
import OpenCoreData

/// Runs libFuzzer's loop (flags and corpus folders from the command line) on
/// `predicateFuzzerTestOneInput`.
@main
enum PredicateFuzzer {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { bytes, count in
            guard let bytes else { return 0 }
            return predicateFuzzerTestOneInput(bytes, count)
        })
    }
}

/// The fuzz target: parses the input as a predicate format string.
///
/// Parsing must either succeed or throw a `CoreDataError`; a predicate that parses must
/// print to a format that parses back to an equal predicate, with the same text.
/// Anything else traps, which libFuzzer records as a crash.
func predicateFuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let format = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    let arguments: [Any?] = ["text", 42, 1.5, [1, 2], nil, "key.path", "x", 7, "y", 3]
    let predicate: CDPredicate
    do {
        predicate = try CDPredicate(format: format, argumentArray: arguments)
    } catch is CoreDataError {
        return 0
    } catch {
        fatalError("parsing threw a non-CoreDataError: \(error)")
    }
    let printed = predicate.predicateFormat
    let reparsed: CDPredicate
    do {
        reparsed = try CDPredicate(format: printed)
    } catch {
        fatalError("the printed form of \(format.debugDescription) does not parse: \(printed.debugDescription): \(error)")
    }
    guard reparsed == predicate, reparsed.predicateFormat == printed else {
        fatalError("round trip changed \(format.debugDescription): \(printed.debugDescription) → \(reparsed.predicateFormat.debugDescription)")
    }
    _ = predicate.hashValue
    _ = try? predicate.withSubstitutionVariables(["x": 1, "y": "two", "VALUE": nil])
    return 0
}
