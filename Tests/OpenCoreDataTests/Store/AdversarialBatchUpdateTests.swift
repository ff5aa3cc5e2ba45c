import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Batch updates that compute or copy values a target attribute cannot hold: a typed error,
/// and nothing changes, on both stores (review1 findings).
@Suite struct AdversarialBatchUpdateTests {
    private func update(_ stack: TestStack, _ properties: [String: Any]) throws {
        try stack.context.performAndWait {
            let request = BatchUpdateRequest(entityName: "Sample")
            request.propertiesToUpdate = properties
            _ = try stack.context.execute(request)
        }
    }

    /// Each sample's values of `keys`, as "value:Type", sorted by `key`.
    private func values(_ stack: TestStack, _ keys: [String]) throws -> [String] {
        try stack.context.performAndWait {
            stack.context.reset()
            return try stack.context.fetch(stack.request(sortedBy: ["key"])).map { object in
                keys.map { key in object.value(forKey: key).map { "\($0):\(type(of: $0))" } ?? "nil" }.joined(separator: " ")
            }
        }
    }

    private static func fn(_ name: String, _ left: CDExpression, _ right: CDExpression) -> CDExpression {
        CDExpression(forFunction: name, arguments: [left, right])
    }

    /// int16 = int64 * 10000 overflowed Int16: SQLite kept 90000 and read back -24464, the
    /// in-memory store kept an Int64 in the Integer 16 attribute. Int64.max + int64
    /// saturated silently.
    @Test(arguments: StoreKind.allCases)
    func aComputedValueOutsideTheIntegerRangeFailsAndChangesNothing(kind: StoreKind) throws {
        let stack = try TestStack.tenSamples(kind)
        try update(stack, ["int16": Int16(1), "int32": Int32(2), "double": Double.infinity])
        let before = try values(stack, ["int16", "int32", "int64"])
        let cases: [(String, CDExpression, CoreDataError.Code)] = [
            ("int16", Self.fn("multiply:by:", .keyPath("int64"), .constant(.int64(10_000))), .validationNumberTooLarge),
            ("int16", Self.fn("from:subtract:", .constant(.int64(-32_760)), .keyPath("int64")), .validationNumberTooSmall),
            ("int32", Self.fn("multiply:by:", .keyPath("int64"), .constant(.int64(1 << 31))), .validationNumberTooLarge),
            ("int64", Self.fn("add:to:", .keyPath("int64"), .constant(.int64(.max))), .validationNumberTooLarge),
            ("int64", Self.fn("multiply:by:", .keyPath("int64"), .constant(.int64(.min))), .validationNumberTooSmall),
            ("int64", Self.fn("add:to:", .keyPath("double"), .constant(.int64(7))), .validationNumberTooLarge),
            ("int16", .keyPath("double"), .validationNumberTooLarge),
        ]
        for (key, expression, expected) in cases {
            #expect(code { try update(stack, [key: expression]) } == expected, "\(key) = \(expression.format)")
            #expect(try values(stack, ["int16", "int32", "int64"]) == before, "\(key) = \(expression.format) changed nothing")
        }
        // In range, both stores convert to the attribute's type.
        try update(stack, ["int16": Self.fn("multiply:by:", .keyPath("int64"), .constant(.int64(1000)))])
        try update(stack, ["int32": Self.fn("divide:by:", .keyPath("int64"), .constant(.int64(2)))])
        #expect(try values(stack, ["int16", "int32"]).first == "9000:Int16 4:Int32")
        if kind == .sqlite, let url = stack.storeURL {
            #expect(try SQLiteInspector(url).strings("SELECT ZINT16 FROM ZSAMPLE WHERE ZKEY = 'k0'") == ["9000"])
        }
    }

    /// Arithmetic into a string, boolean or date attribute, or copying a value across types,
    /// stored a Double in a String/Bool/Date attribute in memory (and text or a Bool in
    /// SQLite); an operand that is not a number gave nil in memory but an error in SQLite.
    @Test(arguments: StoreKind.allCases)
    func computingOrCopyingIntoAnotherTypeIsAWrongTypeError(kind: StoreKind) throws {
        let stack = try TestStack.tenSamples(kind)
        try update(stack, ["string": "s", "date": Date(timeIntervalSinceReferenceDate: 10), "flag": true, "double": 1.5])
        let keys = ["string", "date", "flag", "int64", "double"]
        let before = try values(stack, keys)
        let plus7 = Self.fn("add:to:", .keyPath("int64"), .constant(.int64(7)))
        let cases: [(String, CDExpression)] = [
            ("string", plus7), ("flag", plus7), ("date", Self.fn("add:to:", .keyPath("date"), .constant(.int64(7)))),
            ("int64", Self.fn("add:to:", .keyPath("date"), .constant(.int64(7)))),
            ("int64", Self.fn("add:to:", .keyPath("string"), .constant(.int64(7)))),
            ("int64", Self.fn("add:to:", .keyPath("int64"), .constant(.string("7")))),
            ("string", .keyPath("int64")), ("int64", .keyPath("string")), ("date", .keyPath("double")), ("flag", .keyPath("int64")),
        ]
        for (key, expression) in cases {
            #expect(code { try update(stack, [key: expression]) } == .validationWrongType, "\(key) = \(expression.format)")
            #expect(try values(stack, keys) == before, "\(key) = \(expression.format) changed nothing")
        }
        // Copies between numeric attributes convert, the same on both stores.
        try update(stack, ["int64": CDExpression.keyPath("double"), "int16": CDExpression.keyPath("double")])
        #expect(try values(stack, ["int64", "int16"]).first == "1:Int64 1:Int16")
        try update(stack, ["double": CDExpression.keyPath("int64"), "string": CDExpression.keyPath("key")])
        #expect(try values(stack, ["double", "string"]).first == "1.0:Double k0:String")
    }

    /// A Decimal NaN was written to SQLite as the text 'NaN', after which every fetch of
    /// the entity failed with `.storeCorrupt`; the in-memory store kept it. A Double NaN
    /// constant in a batch update became NULL in SQLite but stayed NaN in memory.
    @Test(arguments: StoreKind.allCases)
    func notANumberIsRefusedByEveryWritePath(kind: StoreKind) throws {
        let stack = try TestStack.tenSamples(kind)
        stack.context.performAndWait {
            _ = stack.insert("Sample", ["key": "nan", "decimal": Decimal.nan])
            #expect(code { try stack.context.save() } == .validationWrongType)
            stack.context.rollback()
            let insert = BatchInsertRequest(entityName: "Sample", objects: [["key": "nan", "decimal": Decimal.nan]])
            #expect(code { _ = try stack.context.execute(insert) } == .validationWrongType)
        }
        #expect(code { try update(stack, ["decimal": Decimal.nan]) } == .validationWrongType)
        #expect(code { try update(stack, ["double": Double.nan]) } == .validationWrongType)
        #expect(try values(stack, ["decimal", "double"]).count == 10, "the store still reads")
        #expect(try values(stack, ["decimal", "double"]).allSatisfy { $0 == "nil nil" })
    }
}
