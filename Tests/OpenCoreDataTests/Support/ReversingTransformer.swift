import Foundation
@testable import OpenCoreData

/// Stores a string reversed, as UTF-8; refuses anything but strings.
struct ReversingTransformer: AttributeValueTransformer {
    struct NotAString: Error {}
    func transformedValue(_ value: Any?) throws -> Data? {
        guard let value else { return nil }
        guard let string = value as? String else { throw NotAString() }
        return Data(String(string.reversed()).utf8)
    }
    func reverseTransformedValue(_ data: Data?) throws -> Any? {
        data.map { String(String(decoding: $0, as: UTF8.self).reversed()) }
    }
}
