import CSQLite
import Foundation
import Testing
@testable import OpenCoreData

@Suite struct AttributeSQLMappingTests {
    private struct Point: Codable, Sendable, Equatable { var x, y: Double }

    /// One value of every stored attribute type, with how it is equal.
    private static func samples() -> [(AttributeType, Any, (Any?) -> Bool)] {
        func sample<T: Equatable>(_ type: AttributeType, _ value: T) -> (AttributeType, Any, (Any?) -> Bool) {
            (type, value, { ($0 as? T) == value })
        }
        return [
            sample(.integer16, Int16.min), sample(.integer32, Int32(-123_456)), sample(.integer64, Int64.max),
            sample(.decimal, Decimal(string: "0.1")!), sample(.decimal, Decimal(string: "1234567890.12345")!),
            sample(.decimal, Decimal(string: "-98765432109876543")!), sample(.double, 3.0), sample(.double, 0.1),
            sample(.float, Float(0.1)), sample(.string, "00123"), sample(.string, "hé 👋"), sample(.boolean, true),
            sample(.boolean, false), sample(.date, Date(timeIntervalSinceReferenceDate: 12)),
            sample(.date, Date(timeIntervalSinceReferenceDate: -1234.5)), sample(.binaryData, Data([0, 1, 255])),
            sample(.binaryData, Data()), sample(.uuid, UUID()), sample(.uri, URL(string: "https://example.com/a?b=c#d")!),
            sample(.transformable, Point(x: 1.5, y: -2)),
        ]
    }

    private static func attribute(_ type: AttributeType, name: String = "value") -> ItemAttribute {
        ItemAttribute(type, name: name) { $0.transformableValueType = Point.self }
    }

    // MARK: - Column types

    @Test func columnTypesAreCoreDatas() {
        let expected: [AttributeType: String] = [
            .integer16: "INTEGER", .integer32: "INTEGER", .integer64: "INTEGER", .boolean: "INTEGER",
            .double: "FLOAT", .float: "FLOAT", .decimal: "DECIMAL", .string: "VARCHAR", .uri: "VARCHAR",
            .date: "TIMESTAMP", .binaryData: "BLOB", .uuid: "BLOB", .transformable: "BLOB",
        ]
        for (type, column) in expected {
            #expect(ItemAttribute(type).attribute.sqlColumnType == column, "\(type)")
        }
    }

    // MARK: - Stored forms

    @Test func valuesHaveCoreDatasStoredForms() throws {
        func stored(_ type: AttributeType, _ value: Any) throws -> SQLValue {
            try ItemAttribute(type).attribute.sqlValue(for: value)
        }
        #expect(try stored(.integer16, Int16(-5)) == .integer(-5))
        #expect(try stored(.boolean, true) == .integer(1))
        #expect(try stored(.float, Float(0.5)) == .real(0.5))
        #expect(try stored(.decimal, Decimal(string: "12.345")!) == .text("12.345"))
        #expect(try stored(.date, Date(timeIntervalSinceReferenceDate: 7.5)) == .real(7.5))
        let uuid = try #require(UUID(uuidString: "00112233-4455-6677-8899-AABBCCDDEEFF"))
        #expect(try stored(.uuid, uuid) == .blob(Data([0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                                                         0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF])))
        #expect(try stored(.uri, URL(string: "https://a.b/c")!) == .text("https://a.b/c"))
        #expect(try stored(.string, "x") == .text("x"))
        #expect(try stored(.binaryData, Data([9])) == .blob(Data([9])))
    }

    @Test func valuesAreCoercedBeforeStoring() throws {
        #expect(try ItemAttribute(.integer16).attribute.sqlValue(for: 5) == .integer(5))
        #expect(try ItemAttribute(.double).attribute.sqlValue(for: NSNumber(value: 3)) == .real(3))
        #expect(try ItemAttribute(.boolean).attribute.sqlValue(for: 0) == .integer(0))
    }

    @Test func nilIsNull() throws {
        for type in AttributeType.allCases {
            let attribute = Self.attribute(type).attribute
            #expect(try attribute.sqlValue(for: nil) == .null)
            #expect(try attribute.value(from: .null) == nil)
        }
    }

    @Test func aValueOfTheWrongTypeIsNotStored() throws {
        let error = try #require(throws: CoreDataError.self) {
            try ItemAttribute(.integer16, name: "count").attribute.sqlValue(for: 70000)
        }
        #expect(error.code == .validationWrongType)
        #expect(error.key == "count")
    }

    @Test func objectIDsAndUndefinedValuesAreNeverStored() throws {
        let id = ManagedObjectID.makeTemporary(for: EntityDescription(name: "Other"))
        #expect(throws: CoreDataError.self) { try ItemAttribute(.objectID).attribute.sqlValue(for: id) }
        #expect(throws: CoreDataError.self) { try ItemAttribute(.undefined).attribute.sqlValue(for: "x") }
        #expect(throws: CoreDataError.self) { try ItemAttribute(.undefined).attribute.value(from: .text("x")) }
    }

    // MARK: - Round trips

    @Test func everyTypeRoundTripsThroughItsSQLValue() throws {
        for (type, value, equals) in Self.samples() {
            let attribute = Self.attribute(type).attribute
            let back = try attribute.value(from: try attribute.sqlValue(for: value))
            #expect(equals(back), "\(type): \(value) came back as \(String(describing: back))")
        }
    }

    @Test func everyTypeRoundTripsThroughSQLiteColumnsOfItsType() throws {
        for (type, value, equals) in Self.samples() {
            let attribute = Self.attribute(type).attribute
            let stored = try SQLiteColumn.roundTrip(try attribute.sqlValue(for: value), columnType: attribute.sqlColumnType)
            let back = try attribute.value(from: stored)
            #expect(equals(back), "\(type): \(value) stored as \(stored) came back as \(String(describing: back))")
        }
    }

    @Test func sqliteAffinityChangesStorageClassesAndValuesSurvive() throws {
        // DECIMAL and TIMESTAMP have NUMERIC affinity: SQLite turns numeric text and whole
        // reals into INTEGER or REAL. FLOAT has REAL affinity: integers become reals.
        #expect(try SQLiteColumn.roundTrip(.text("0.1"), columnType: "DECIMAL") == .real(0.1))
        #expect(try SQLiteColumn.roundTrip(.text("-42"), columnType: "DECIMAL") == .integer(-42))
        #expect(try SQLiteColumn.roundTrip(.real(12), columnType: "TIMESTAMP") == .integer(12))
        #expect(try SQLiteColumn.roundTrip(.integer(3), columnType: "FLOAT") == .real(3))
        #expect(try SQLiteColumn.roundTrip(.text("00123"), columnType: "VARCHAR") == .text("00123"))
        let price = ItemAttribute(.decimal)
        let back = try price.attribute.value(from: SQLiteColumn.roundTrip(.text("19.99"), columnType: "DECIMAL"))
        #expect(back as? Decimal == Decimal(string: "19.99"))
    }

    @Test func integersAndRealsAreAcceptedForEachOther() throws {
        #expect(try ItemAttribute(.integer32).attribute.value(from: .real(4)) as? Int32 == 4)
        #expect(try ItemAttribute(.double).attribute.value(from: .integer(4)) as? Double == 4)
        #expect(try ItemAttribute(.float).attribute.value(from: .integer(-2)) as? Float == -2)
        #expect(try ItemAttribute(.boolean).attribute.value(from: .real(1)) as? Bool == true)
        #expect(try ItemAttribute(.date).attribute.value(from: .integer(60)) as? Date
                == Date(timeIntervalSinceReferenceDate: 60))
        #expect(try ItemAttribute(.decimal).attribute.value(from: .integer(12)) as? Decimal == 12)
        #expect(try ItemAttribute(.decimal).attribute.value(from: .real(0.1)) as? Decimal == Decimal(string: "0.1"))
    }

    // MARK: - Malformed stored values

    @Test func malformedStoredValuesAreStoreCorruption() throws {
        let cases: [(AttributeType, SQLValue, String)] = [
            (.uuid, .blob(Data([1, 2, 3])), "a 3-byte blob"),
            (.integer16, .integer(70000), "the integer 70000"),
            (.integer32, .real(2.5), "the real 2.5"),
            (.integer64, .text("12"), "the text \"12\""),
            (.string, .integer(5), "the integer 5"),
            (.decimal, .text("12abc"), "the text \"12abc\""),
            (.decimal, .text("0x1p3"), "the text"),
            (.date, .text("yesterday"), "the text"),
            (.uri, .text(""), "the text"),
            (.binaryData, .text("bytes"), "the text"),
            (.boolean, .blob(Data([1])), "a 1-byte blob"),
            (.double, .text("1.5"), "the text"),
        ]
        for (type, sql, described) in cases {
            let field = ItemAttribute(type, name: "field")
            let error = try #require(throws: CoreDataError.self, "\(type)") {
                try field.attribute.value(from: sql)
            }
            #expect(error.code == .storeCorrupt, "\(type)")
            #expect(error.key == "field")
            #expect(error.message.contains("Item.field"))
            #expect(error.message.contains(described), "\(error.message)")
            #expect(error.message.contains("not a valid \(type.displayName)"), "\(error.message)")
        }
    }
}

// MARK: - A one-column SQLite table

/// Stores one value in a real SQLite table whose column has a declared type, and reads it
/// back, binding and reading the way the SQLite store does.
private enum SQLiteColumn {
    struct Failure: Error { var message: String }

    static func roundTrip(_ value: SQLValue, columnType: String) throws -> SQLValue {
        var db: OpaquePointer?
        guard sqlite3_open(":memory:", &db) == SQLITE_OK else { throw Failure(message: "open") }
        defer { sqlite3_close(db) }
        try run(db, "CREATE TABLE t (c \(columnType))") { _ in }
        try run(db, "INSERT INTO t (c) VALUES (?)") { bind(value, to: $0) }
        var result = SQLValue.null
        try run(db, "SELECT c FROM t") { result = read($0) }
        return result
    }

    private static func run(_ db: OpaquePointer?, _ sql: String, _ body: (OpaquePointer?) -> Void) throws {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else {
            throw Failure(message: String(cString: sqlite3_errmsg(db)))
        }
        defer { sqlite3_finalize(statement) }
        if sql.hasPrefix("INSERT") { body(statement) }
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE || code == SQLITE_ROW else { throw Failure(message: String(cString: sqlite3_errmsg(db))) }
        if code == SQLITE_ROW { body(statement) }
    }

    private static func bind(_ value: SQLValue, to statement: OpaquePointer?) {
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        switch value {
        case .null: sqlite3_bind_null(statement, 1)
        case .integer(let v): sqlite3_bind_int64(statement, 1, v)
        case .real(let v): sqlite3_bind_double(statement, 1, v)
        case .text(let v): sqlite3_bind_text(statement, 1, v, -1, transient)
        case .blob(let v) where v.isEmpty: sqlite3_bind_zeroblob(statement, 1, 0)
        case .blob(let v):
            v.withUnsafeBytes { _ = sqlite3_bind_blob(statement, 1, $0.baseAddress, Int32($0.count), transient) }
        }
    }

    private static func read(_ statement: OpaquePointer?) -> SQLValue {
        switch sqlite3_column_type(statement, 0) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, 0))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, 0))
        case SQLITE_TEXT: return .text(String(cString: sqlite3_column_text(statement, 0)))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, 0))
            guard count > 0, let bytes = sqlite3_column_blob(statement, 0) else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default: return .null
        }
    }
}
