import Foundation

/// One property's value as an object, a row snapshot and a save request keep it:
/// attributes unboxed in their canonical Swift type, a to-one relationship as its
/// object's ID, nil as `.null`. Anything else — a transformable's value, or a value of
/// the wrong type kept as given so that `save()` reports it — is boxed in `.other`.
///
/// The row decoder, typed accessors, the save path and validation switch on the case;
/// `Any?` appears only at the edge (`value(forKey:)`, `setValue(_:forKey:)`), through
/// `init(_:)` and `any`, which round-trip exactly.
enum SlotValue {
    case null
    case int16(Int16)
    case int32(Int32)
    case int64(Int64)
    case double(Double)
    case float(Float)
    case bool(Bool)
    case decimal(Decimal)
    case date(Date)
    case string(String)
    case data(Data)
    case uuid(UUID)
    case uri(URL)
    case object(ManagedObjectID)
    case other(BoxedValue)

    /// The value of an `Any?`: unboxed when its type is one of the cases' exactly (so a
    /// bridged or subclassed value keeps its identity in `.other`).
    init(_ value: Any?) {
        guard let value else { self = .null; return }
        let type = Swift.type(of: value)
        if type == String.self, let string = value as? String { self = .string(string) }
        else if type == Int64.self, let number = value as? Int64 { self = .int64(number) }
        else if type == Double.self, let number = value as? Double { self = .double(number) }
        else if type == Bool.self, let flag = value as? Bool { self = .bool(flag) }
        else if type == Date.self, let date = value as? Date { self = .date(date) }
        else if type == Int32.self, let number = value as? Int32 { self = .int32(number) }
        else if type == Int16.self, let number = value as? Int16 { self = .int16(number) }
        else if type == Float.self, let number = value as? Float { self = .float(number) }
        else if type == Decimal.self, let number = value as? Decimal { self = .decimal(number) }
        else if type == Data.self, let data = value as? Data { self = .data(data) }
        else if type == UUID.self, let uuid = value as? UUID { self = .uuid(uuid) }
        else if type == URL.self, let url = value as? URL { self = .uri(url) }
        else if type == ManagedObjectID.self, let id = value as? ManagedObjectID { self = .object(id) }
        else { self = .other(BoxedValue(value)) }
    }

    /// The value boxed as `Any?`, exactly as it was given to `init(_:)`.
    var any: Any? {
        switch self {
        case .null: return nil
        case .int16(let value): return value
        case .int32(let value): return value
        case .int64(let value): return value
        case .double(let value): return value
        case .float(let value): return value
        case .bool(let value): return value
        case .decimal(let value): return value
        case .date(let value): return value
        case .string(let value): return value
        case .data(let value): return value
        case .uuid(let value): return value
        case .uri(let value): return value
        case .object(let value): return value
        case .other(let box): return box.value
        }
    }

    var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The related object's ID of a to-one value (nil for anything else).
    var objectID: ManagedObjectID? {
        if case .object(let id) = self { return id }
        return nil
    }

    /// Whether the value has the attribute's canonical Swift type (nil always has), so
    /// that `save()` need not check it again; boxed values are checked by the attribute.
    func isCanonical(for attribute: AttributeDescription) -> Bool {
        isCanonical(for: attribute.attributeType, attribute)
    }

    /// `isCanonical(for:)` with the attribute's type already read (`EntitySlots.attributeTypes`).
    @inline(__always)
    func isCanonical(for type: AttributeType, _ attribute: AttributeDescription) -> Bool {
        switch (self, type) {
        case (.null, _), (.int16, .integer16), (.int32, .integer32), (.int64, .integer64),
             (.double, .double), (.float, .float), (.bool, .boolean), (.decimal, .decimal),
             (.date, .date), (.string, .string), (.data, .binaryData), (.uuid, .uuid),
             (.uri, .uri), (.object, .objectID):
            return true
        case (.other(let box), _):
            return attribute.isCanonical(box.value)
        case (_, .transformable), (_, .undefined):
            return attribute.isCanonical(any as Any)
        default:
            return false
        }
    }

    /// Whether the value is a NaN (of a double, float, decimal or date), which no store
    /// can keep: `save()` reports it.
    var isNaN: Bool {
        switch self {
        case .double(let value): return value.isNaN
        case .float(let value): return value.isNaN
        case .decimal(let value): return value.isNaN
        case .date(let value): return value.timeIntervalSinceReferenceDate.isNaN
        default: return false
        }
    }
}

extension SlotValue: Equatable {
    /// Equal values of one case (NaN is never equal, as for the Swift types); boxed
    /// values compare as `AnyHashable` when they are hashable, and never otherwise.
    static func == (lhs: SlotValue, rhs: SlotValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.int16(a), .int16(b)): return a == b
        case let (.int32(a), .int32(b)): return a == b
        case let (.int64(a), .int64(b)): return a == b
        case let (.double(a), .double(b)): return a == b
        case let (.float(a), .float(b)): return a == b
        case let (.bool(a), .bool(b)): return a == b
        case let (.decimal(a), .decimal(b)): return a == b
        case let (.date(a), .date(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.data(a), .data(b)): return a == b
        case let (.uuid(a), .uuid(b)): return a == b
        case let (.uri(a), .uri(b)): return a == b
        case let (.object(a), .object(b)): return a == b
        case let (.other(a), .other(b)):
            guard let left = a.value as? AnyHashable, let right = b.value as? AnyHashable else { return false }
            return left == right
        default: return false
        }
    }
}

/// A value `SlotValue` keeps boxed: one reference, so the enum stays small.
final class BoxedValue {
    let value: Any
    init(_ value: Any) { self.value = value }
}

/// The values of one object or row, by slot.
typealias SlotValues = ContiguousArray<SlotValue>
