import Foundation

/// Prints a command's result to standard output as text or as JSON.
///
/// JSON is one document per command: pretty-printed, keys sorted, dates in ISO 8601, so
/// that scripts (and the tests) can parse it and diffs stay stable.
struct Output {
    let json: Bool

    /// Prints `value` as JSON, or the lines `text` makes from it.
    func emit<Value: Encodable>(_ value: Value, text: (Value) -> [String]) throws {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .iso8601
            encoder.dataEncodingStrategy = .base64
            print(String(decoding: try encoder.encode(value), as: UTF8.self))
        } else {
            for line in text(value) { print(line) }
        }
    }
}
