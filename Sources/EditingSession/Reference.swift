import OpenCoreData

/// A saved object's short, typed reference: its primary key, e.g. `12`.
///
/// Made to travel where a managed object cannot — a command-line argument, a URL, a form
/// field, JSON — and to come back through `EditingSession.object(_:)`, which checks it.
/// The type parameter keeps an item's reference from being used as a project's. Core
/// Data's `uriRepresentation()` says the same with the store's UUID and the entity name;
/// within one app's store the key alone is enough.
public struct Reference<Object: ManagedObject>: Hashable, Sendable, Codable, LosslessStringConvertible {
    /// The object's row number in its store (`Z_PK`): positive.
    public let primaryKey: Int64

    /// The reference to the row `primaryKey`; nil unless it is positive.
    public init?(primaryKey: Int64) {
        guard primaryKey > 0 else { return nil }
        self.primaryKey = primaryKey
    }

    /// Parses the decimal form, `"12"`; nil for anything else.
    public init?(_ description: String) {
        guard description.allSatisfy(\.isASCII), let key = Int64(description) else { return nil }
        self.init(primaryKey: key)
    }

    /// The decimal form, `"12"`.
    public var description: String { String(primaryKey) }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let key = try container.decode(Int64.self)
        guard key > 0 else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "A reference is a positive row number, not \(key).")
        }
        primaryKey = key
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(primaryKey)
    }
}
