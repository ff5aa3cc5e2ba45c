import Foundation
import Testing
@testable import OpenCoreData

/// An attribute of an entity named "Item". Attributes reference their entity weakly,
/// so the fixture keeps the entity alive for messages such as "Item.title …".
struct ItemAttribute {
    let entity: EntityDescription
    let attribute: AttributeDescription

    init(_ type: AttributeType, name: String = "value", isOptional: Bool = true, isTransient: Bool = false,
         configure: (AttributeDescription) -> Void = { _ in }) {
        attribute = AttributeDescription(name: name, type: type, isOptional: isOptional, isTransient: isTransient)
        configure(attribute)
        entity = EntityDescription(name: "Item", properties: [attribute])
    }
}

@Suite struct AttributeCoercionTests {
    /// Expects `input` to become exactly `expected`, of `expected`'s type.
    private func expectConverts<T: Equatable>(_ type: AttributeType, _ input: Any, to expected: T,
                                              sourceLocation: SourceLocation = #_sourceLocation) {
        let result = ItemAttribute(type).attribute.canonicalValue(input)
        #expect(result.map { Swift.type(of: $0) == T.self } == true,
                "\(input) as \(type) gave \(String(describing: result))", sourceLocation: sourceLocation)
        #expect(result as? T == expected, sourceLocation: sourceLocation)
    }

    /// Expects `input` to come back unchanged: same type, same value.
    private func expectUnchanged<T: Equatable>(_ type: AttributeType, _ input: T,
                                               sourceLocation: SourceLocation = #_sourceLocation) {
        let result = ItemAttribute(type).attribute.canonicalValue(input)
        #expect(result.map { Swift.type(of: $0) == T.self } == true,
                "\(input) as \(type) gave \(String(describing: result))", sourceLocation: sourceLocation)
        #expect(result as? T == input, sourceLocation: sourceLocation)
    }

    // MARK: - Already canonical

    @Test func canonicalValuesPassThroughUnchanged() {
        let entity = EntityDescription(name: "Item")
        let id = ManagedObjectID.makeTemporary(for: entity)
        expectConverts(.integer16, Int16(-3), to: Int16(-3))
        expectConverts(.integer32, Int32.max, to: Int32.max)
        expectConverts(.integer64, Int64.min, to: Int64.min)
        expectConverts(.decimal, Decimal(string: "12.345")!, to: Decimal(string: "12.345")!)
        expectConverts(.double, 2.5, to: 2.5)
        expectConverts(.float, Float(1.25), to: Float(1.25))
        expectConverts(.string, "hé", to: "hé")
        expectConverts(.boolean, true, to: true)
        expectConverts(.date, Date(timeIntervalSinceReferenceDate: 7), to: Date(timeIntervalSinceReferenceDate: 7))
        expectConverts(.binaryData, Data([1, 2]), to: Data([1, 2]))
        let uuid = UUID()
        expectConverts(.uuid, uuid, to: uuid)
        expectConverts(.uri, URL(string: "https://example.com/a")!, to: URL(string: "https://example.com/a")!)
        expectConverts(.objectID, id, to: id)
    }

    @Test func nilAndNullBecomeNil() {
        for type in AttributeType.allCases {
            let attribute = ItemAttribute(type).attribute
            #expect(attribute.canonicalValue(nil) == nil)
            #expect(attribute.canonicalValue(NSNull()) == nil)
        }
    }

    @Test func optionalsInsideAnyAreUnwrapped() {
        let some: Int? = 5
        let none: Int? = nil
        let values: [String: Any] = ["some": some as Any, "none": none as Any]
        expectConverts(.integer16, values["some"]!, to: Int16(5))
        #expect(ItemAttribute(.integer16).attribute.canonicalValue(values["none"]!) == nil)
    }

    // MARK: - Exact conversions

    @Test func integersConvertWhenTheyFit() {
        expectConverts(.integer16, 5, to: Int16(5))
        expectConverts(.integer16, UInt8(200), to: Int16(200))
        expectConverts(.integer32, Int64(-70000), to: Int32(-70000))
        expectConverts(.integer64, UInt32.max, to: Int64(UInt32.max))
        expectConverts(.integer32, 2.0, to: Int32(2))
        expectConverts(.integer64, Float(-8), to: Int64(-8))
        expectConverts(.integer16, Decimal(string: "12.0")!, to: Int16(12))
        expectConverts(.integer16, NSNumber(value: 5), to: Int16(5))
        expectConverts(.integer64, NSDecimalNumber(string: "42"), to: Int64(42))
    }

    @Test func numbersConvertToFloatingPointWhenNoDigitIsLost() {
        expectConverts(.double, Int64(3), to: 3.0)
        expectConverts(.double, Float(0.1), to: 0.1)
        expectConverts(.double, Decimal(string: "0.5")!, to: 0.5)
        expectConverts(.double, NSNumber(value: 2.5), to: 2.5)
        expectConverts(.double, CGFloat(1.5), to: 1.5)
        expectConverts(.float, 0.1, to: Float(0.1))
        expectConverts(.float, 16_777_216, to: Float(16_777_216))
        expectConverts(.float, Decimal(string: "0.25")!, to: Float(0.25))
        expectConverts(.float, NSNumber(value: Float(0.3)), to: Float(0.3))
    }

    @Test func numbersConvertToDecimalExactly() {
        expectConverts(.decimal, 7, to: Decimal(7))
        expectConverts(.decimal, UInt64.max, to: Decimal(string: "18446744073709551615")!)
        expectConverts(.decimal, 0.1, to: Decimal(string: "0.1")!)
        expectConverts(.decimal, Float(0.1), to: Decimal(string: "0.1")!)
        expectConverts(.decimal, NSDecimalNumber(string: "3.14159"), to: Decimal(string: "3.14159")!)
        expectConverts(.decimal, NSNumber(value: 12), to: Decimal(12))
    }

    @Test func booleansAcceptZeroAndOne() {
        expectConverts(.boolean, 1, to: true)
        expectConverts(.boolean, 0, to: false)
        expectConverts(.boolean, Int16(1), to: true)
        expectConverts(.boolean, 0.0, to: false)
        expectConverts(.boolean, NSNumber(value: true), to: true)
        expectConverts(.boolean, NSNumber(value: 0), to: false)
    }

    @Test func foundationAndRelatedTypesConvertToSwiftValues() {
        expectConverts(.string, NSString(string: "abc"), to: "abc")
        expectConverts(.string, "a-b-c".split(separator: "-")[1], to: "b")
        expectConverts(.date, NSDate(timeIntervalSinceReferenceDate: 9), to: Date(timeIntervalSinceReferenceDate: 9))
        expectConverts(.binaryData, NSData(data: Data([7])), to: Data([7]))
        expectConverts(.binaryData, [UInt8]([1, 2, 3]), to: Data([1, 2, 3]))
        let uuid = UUID()
        expectConverts(.uuid, NSUUID(uuidString: uuid.uuidString)!, to: uuid)
        expectConverts(.uri, NSURL(string: "file:///tmp/x")!, to: URL(string: "file:///tmp/x")!)
    }

    // MARK: - No exact conversion: the value is kept

    @Test func numbersThatDoNotFitAreKept() {
        expectUnchanged(.integer16, 70000)
        expectUnchanged(.integer32, 2.5)
        expectUnchanged(.integer64, UInt64.max)
        expectUnchanged(.integer64, -Double.infinity)
        expectUnchanged(.integer16, Decimal(string: "1.5")!)
        expectUnchanged(.double, Int64.max)
        expectUnchanged(.double, Decimal(string: "0.1234567890123456789")!)
        expectUnchanged(.float, 0.1234567891)
        expectUnchanged(.float, 16_777_217)
        expectUnchanged(.decimal, Double.infinity)
        expectUnchanged(.boolean, 2)
        expectUnchanged(.boolean, 0.5)
    }

    @Test func foundationNumbersThatDoNotFitAreKept() {
        let big = NSNumber(value: 70000)
        let result = ItemAttribute(.integer16).attribute.canonicalValue(big)
        #expect((result as? NSNumber) === big)
    }

    @Test func otherTypesAreKept() {
        expectUnchanged(.integer16, true)
        expectUnchanged(.integer16, "5")
        expectUnchanged(.double, "2.5")
        expectUnchanged(.string, 5)
        expectUnchanged(.date, 12.0)
        expectUnchanged(.uuid, "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        expectUnchanged(.uri, "https://example.com")
        expectUnchanged(.binaryData, "bytes")
        expectUnchanged(.boolean, "true")
        expectUnchanged(.objectID, 5)
    }

    @Test func transformableAndUndefinedKeepAnyValue() {
        expectUnchanged(.transformable, [1, 2, 3])
        expectUnchanged(.transformable, 5)
        expectUnchanged(.undefined, "anything")
    }

    // MARK: - Canonical check

    @Test func isCanonicalChecksTheExactType() {
        #expect(ItemAttribute(.integer16).attribute.isCanonical(Int16(1)))
        #expect(!ItemAttribute(.integer16).attribute.isCanonical(1))
        #expect(!ItemAttribute(.integer16).attribute.isCanonical(NSNumber(value: 1)))
        #expect(ItemAttribute(.transformable).attribute.isCanonical("any"))
        let typed = ItemAttribute(.transformable) { $0.transformableValueType = [String].self }
        #expect(typed.attribute.isCanonical(["a"]))
        #expect(!typed.attribute.isCanonical([1]))
    }
}
