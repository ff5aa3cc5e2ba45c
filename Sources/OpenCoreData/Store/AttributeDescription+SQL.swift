import Foundation

// MARK: - Column types

extension AttributeType {
    /// The declared SQLite column type, as Core Data's SQLite store declares it.
    ///
    /// INTEGER for integers and booleans, FLOAT for doubles and floats, DECIMAL for
    /// decimals, VARCHAR for strings and URIs, TIMESTAMP for dates, BLOB for binary
    /// data, UUIDs (16 raw bytes) and transformables. Object IDs and undefined
    /// attributes are never stored (they are transient); BLOB is given for completeness.
    package var sqlColumnType: String {
        switch self {
        case .integer16, .integer32, .integer64, .boolean: return "INTEGER"
        case .double, .float: return "FLOAT"
        case .decimal: return "DECIMAL"
        case .string, .uri: return "VARCHAR"
        case .date: return "TIMESTAMP"
        case .binaryData, .uuid, .transformable, .objectID, .undefined: return "BLOB"
        }
    }
}

// MARK: - Values to SQL

extension AttributeDescription {
    /// The declared SQLite column type of this attribute (see `AttributeType.sqlColumnType`).
    package var sqlColumnType: String { attributeType.sqlColumnType }

    /// The SQLite value that stores `value` (which `canonicalValue(_:)` is applied to first).
    ///
    /// Integers and booleans are stored as `.integer`; doubles and floats as `.real`;
    /// dates as `.real` seconds since 2001 (Core Data's reference date); UUIDs as a
    /// 16-byte `.blob`; URIs as their absolute string; transformables as the `.blob`
    /// their transformer makes. Decimals are bound as `.text` holding their exact
    /// decimal form: the DECIMAL column has SQLite's NUMERIC affinity, so SQLite keeps
    /// the value as an INTEGER when it is whole and fits 64 bits, otherwise as a REAL
    /// (15 significant digits survive exactly). Numeric comparisons and sorting in SQL
    /// therefore work, as in Core Data; `value(from:)` reads back the shortest decimal
    /// form of a REAL, so `0.1` stays `0.1`.
    ///
    /// Throws `.validationWrongType` for a value of the wrong type, `.transformerFailed`
    /// when a transformable value cannot be transformed, and `.storeSaveFailed` for the
    /// object ID and undefined types, which have no stored form.
    package func sqlValue(for value: Any?) throws -> SQLValue {
        guard let value = canonicalValue(value) else { return .null }
        switch attributeType {
        case .objectID, .undefined:
            throw CoreDataError(.storeSaveFailed,
                                "\(qualifiedName) has type \(attributeType.displayName), which cannot be stored.", key: name)
        default: break
        }
        if attributeType == .transformable {
            return try transformedData(value).map(SQLValue.blob) ?? .null
        }
        guard isCanonical(value) else { throw wrongTypeError(value) }
        // One cast, chosen by type: `isCanonical` guarantees it succeeds.
        let sql: SQLValue?
        switch attributeType {
        case .integer16: sql = (value as? Int16).map { .integer(Int64($0)) }
        case .integer32: sql = (value as? Int32).map { .integer(Int64($0)) }
        case .integer64: sql = (value as? Int64).map { .integer($0) }
        case .boolean: sql = (value as? Bool).map { .integer($0 ? 1 : 0) }
        case .double: sql = (value as? Double).map { .real($0) }
        case .float: sql = (value as? Float).map { .real(Double($0)) }
        case .decimal: sql = (value as? Decimal).map { .text($0.description) }
        case .string: sql = (value as? String).map { .text($0) }
        case .date: sql = (value as? Date).map { .real($0.timeIntervalSinceReferenceDate) }
        case .binaryData: sql = (value as? Data).map { .blob($0) }
        case .uuid: sql = (value as? UUID).map { id in .blob(withUnsafeBytes(of: id.uuid) { Data($0) }) }
        case .uri: sql = (value as? URL).map { .text($0.absoluteString) }
        case .transformable, .objectID, .undefined: sql = nil
        }
        guard let sql else { throw wrongTypeError(value) }
        return sql
    }
}

// MARK: - SQL to values

extension AttributeDescription {
    /// The attribute value that `sql` stores: the exact inverse of `sqlValue(for:)`.
    ///
    /// Accepts an `.integer` where a `.real` is expected and the reverse, as SQLite's
    /// column affinities may return either. A stored value that cannot be this
    /// attribute's (text in an integer column, a 3-byte UUID, 70000 for Integer 16)
    /// throws `.storeCorrupt`; a transformer failure throws `.transformerFailed`.
    package func value(from sql: SQLValue) throws -> Any? {
        if case .null = sql { return nil }
        let result: Any?
        switch (attributeType, sql) {
        case (.integer16, _): result = integer(sql, Int16.self)
        case (.integer32, _): result = integer(sql, Int32.self)
        case (.integer64, _): result = integer(sql, Int64.self)
        case (.boolean, .integer(let v)): result = v != 0
        case (.boolean, .real(let v)): result = v != 0
        case (.double, .real(let v)): result = v
        case (.double, .integer(let v)): result = Double(v)
        case (.float, .real(let v)): result = Float(v)
        case (.float, .integer(let v)): result = Float(v)
        case (.decimal, .integer(let v)): result = Decimal(v)
        case (.decimal, .real(let v)): result = ExactNumber.double(v).decimal
        case (.decimal, .text(let v)): result = Self.decimal(v)
        case (.string, .text(let v)): result = v
        case (.date, .real(let v)): result = Date(timeIntervalSinceReferenceDate: v)
        case (.date, .integer(let v)): result = Date(timeIntervalSinceReferenceDate: Double(v))
        case (.binaryData, .blob(let v)): result = v
        case (.uuid, .blob(let v)): result = Self.uuid(v)
        case (.uri, .text(let v)): result = URL(string: v)
        case (.transformable, .blob(let v)): return try reverseTransformedValue(v)
        case (.objectID, _), (.undefined, _):
            throw CoreDataError(.storeCorrupt,
                                "\(qualifiedName) has type \(attributeType.displayName), which is never stored.", key: name)
        default: result = nil
        }
        guard let result else {
            throw CoreDataError(.storeCorrupt,
                                "\(qualifiedName): the stored value, \(Self.describe(sql)), is not a valid \(attributeType.displayName).",
                                key: name)
        }
        return result
    }

    private func integer<T: FixedWidthInteger>(_ sql: SQLValue, _: T.Type) -> T? {
        switch sql {
        case .integer(let v): return T(exactly: v)
        case .real(let v): return T(exactly: v)
        default: return nil
        }
    }

    /// A decimal written as plain digits, sign, point and exponent; `nil` for anything else
    /// (`Decimal(string:)` alone would read "12abc" as 12).
    private static func decimal(_ text: String) -> Decimal? {
        let allowed = Set("0123456789+-.eE")
        guard !text.isEmpty, text.allSatisfy(allowed.contains), Double(text) != nil else { return nil }
        return Decimal(string: text)
    }

    private static func uuid(_ data: Data) -> UUID? {
        guard data.count == 16 else { return nil }
        let b = Array(data)
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                           b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }

    private static func describe(_ sql: SQLValue) -> String {
        switch sql {
        case .null: return "NULL"
        case .integer(let v): return "the integer \(v)"
        case .real(let v): return "the real \(v)"
        case .text(let v): return "the text \(describe(v))"
        case .blob(let v): return "a \(v.count)-byte blob"
        }
    }
}
