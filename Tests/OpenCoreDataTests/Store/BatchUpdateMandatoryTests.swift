import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// A batch update whose computed or copied value is nil for some row — division by zero,
/// a nil operand, NaN — wrote NULL into a required attribute (and a typed `Int64`
/// accessor then trapped). It is the nil constant's error instead, nothing written, on
/// both stores.
@Suite struct BatchUpdateMandatoryTests {
    private static func model() -> ManagedObjectModel {
        ManagedObjectModel(entities: [EntityDescription(name: "Row", properties: [
            AttributeDescription(name: "key", type: .string),
            AttributeDescription(name: "order", type: .integer64, isOptional: false, defaultValue: Int64(0)),
            AttributeDescription(name: "ratio", type: .double, isOptional: false, defaultValue: 0.0),
            AttributeDescription(name: "label", type: .string, isOptional: false, defaultValue: ""),
            AttributeDescription(name: "spare", type: .integer64),
            AttributeDescription(name: "note", type: .string),
        ])])
    }

    private static func fn(_ name: String, _ left: CDExpression, _ right: CDExpression) -> CDExpression {
        CDExpression(forFunction: name, arguments: [left, right])
    }

    private func update(_ stack: TestStack, _ properties: [String: Any]) throws {
        try stack.context.performAndWait {
            let request = BatchUpdateRequest(entityName: "Row")
            request.propertiesToUpdate = properties
            _ = try stack.context.execute(request)
        }
    }

    private func rows(_ stack: TestStack) throws -> [String] {
        try stack.context.performAndWait {
            stack.context.reset()
            let request = FetchRequest<ManagedObject>(entityName: "Row")
            request.sortDescriptors = [CDSortDescriptor(key: "key")]
            return try stack.context.fetch(request).map { row in
                ["key", "order", "ratio", "label"].map { "\(row.value(forKey: $0) ?? "nil")" }.joined(separator: " ")
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aNilComputedForARequiredAttributeFailsAndChangesNothing(kind: StoreKind) throws {
        let stack = try TestStack(model: Self.model(), kind: kind)
        try stack.context.performAndWait {
            for (index, order) in [Int64(4), 0].enumerated() {
                _ = stack.insert("Row", ["key": "r\(index)", "order": order, "ratio": 1.5, "label": "x"])
            }
            try stack.context.save()
        }
        let before = try rows(stack)
        let cases: [(String, CDExpression)] = [
            ("order", Self.fn("divide:by:", .keyPath("order"), .keyPath("order"))),
            ("order", Self.fn("divide:by:", .keyPath("order"), .constant(.int64(0)))),
            ("ratio", Self.fn("divide:by:", .keyPath("ratio"), .constant(.double(0)))),
            ("order", Self.fn("add:to:", .keyPath("order"), .keyPath("spare"))),
            ("ratio", Self.fn("add:to:", .constant(.double(.infinity)), .constant(.double(-.infinity)))),
            ("order", .keyPath("spare")),
            ("label", .keyPath("note")),
        ]
        for (key, expression) in cases {
            let error = try #require(throws: CoreDataError.self, "\(key) = \(expression.format)") { try update(stack, [key: expression]) }
            #expect(error.code == .validationMissingMandatoryProperty, "\(key) = \(expression.format)")
            #expect(error.key == key)
            #expect(try rows(stack) == before, "\(key) = \(expression.format) changed nothing")
        }
        // A value that is never nil still updates every row; nil stays allowed where optional.
        try update(stack, ["order": Self.fn("divide:by:", .keyPath("order"), .constant(.int64(2))),
                           "spare": Self.fn("divide:by:", .keyPath("order"), .constant(.int64(0)))])
        #expect(try rows(stack) == ["r0 2 1.5 x", "r1 0 1.5 x"])
    }
}
