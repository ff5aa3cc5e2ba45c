import Foundation
import Testing
@testable import OpenCoreData

@Suite struct AttributeValidationTests {
    /// The single error validating `value` gives, after coercion as `setValue` does.
    private func onlyError(_ fixture: ItemAttribute, _ value: Any?,
                           sourceLocation: SourceLocation = #_sourceLocation) throws -> CoreDataError {
        let attribute = fixture.attribute
        let errors = attribute.validationErrors(for: attribute.canonicalValue(value))
        #expect(errors.count == 1, "\(errors)", sourceLocation: sourceLocation)
        let error = try #require(errors.first, sourceLocation: sourceLocation)
        #expect(error.key == attribute.name, sourceLocation: sourceLocation)
        #expect(error.isValidationError, sourceLocation: sourceLocation)
        return error
    }

    private func isValid(_ fixture: ItemAttribute, _ value: Any?) -> Bool {
        fixture.attribute.validationErrors(for: fixture.attribute.canonicalValue(value)).isEmpty
    }

    // MARK: - Mandatory values

    @Test func aMissingMandatoryValueIsAnError() throws {
        let title = ItemAttribute(.string, name: "title", isOptional: false)
        let error = try onlyError(title, nil)
        #expect(error.code == .validationMissingMandatoryProperty)
        #expect(error.message == "Item.title is required but has no value.")
        #expect(try onlyError(title, NSNull()).code == .validationMissingMandatoryProperty)
        #expect(isValid(title, ""))
    }

    @Test func transientAttributesAreValidatedToo() throws {
        let cached = ItemAttribute(.integer32, name: "cached", isOptional: false, isTransient: true)
        #expect(try onlyError(cached, nil).code == .validationMissingMandatoryProperty)
    }

    @Test func optionalAttributesAcceptNil() {
        for type in AttributeType.allCases {
            #expect(isValid(ItemAttribute(type), nil))
        }
    }

    // MARK: - Types

    @Test func aValueOfAnotherTypeIsAnError() throws {
        let error = try onlyError(ItemAttribute(.integer16, name: "count"), "many")
        #expect(error.code == .validationWrongType)
        #expect(error.message == "Item.count expects Integer 16 (Int16) but got \"many\" (String).")
    }

    @Test func aNumberThatDoesNotFitIsAnError() throws {
        let count = ItemAttribute(.integer16, name: "count")
        let error = try onlyError(count, 70000)
        #expect(error.code == .validationWrongType)
        #expect(error.message == "Item.count expects Integer 16 (Int16) but got 70000 (Int), which does not fit Integer 16.")
        let fraction = try onlyError(ItemAttribute(.integer32, name: "size"), 2.5)
        #expect(fraction.message.contains("2.5 (Double), which does not fit Integer 32"))
        #expect(try onlyError(ItemAttribute(.boolean), 2).code == .validationWrongType)
        #expect(try onlyError(ItemAttribute(.float), 0.1234567891).code == .validationWrongType)
    }

    @Test func everyTypeAcceptsItsCanonicalValueAndRejectsAnother() throws {
        let entity = EntityDescription(name: "Other")
        let samples: [(AttributeType, Any)] = [
            (.integer16, Int16(1)), (.integer32, Int32(1)), (.integer64, Int64(1)), (.decimal, Decimal(1)),
            (.double, 1.0), (.float, Float(1)), (.string, "s"), (.boolean, false), (.date, Date()),
            (.binaryData, Data()), (.uuid, UUID()), (.uri, URL(string: "a:b")!),
            (.objectID, ManagedObjectID.makeTemporary(for: entity)),
        ]
        #expect(samples.count == AttributeType.allCases.count - 2)
        for (type, value) in samples {
            #expect(isValid(ItemAttribute(type), value), "\(type)")
            let wrong: Any = type == .string ? 1 : "s"
            #expect(try onlyError(ItemAttribute(type), wrong).code == .validationWrongType, "\(type)")
        }
    }

    @Test func aTransformableWithAValueTypeChecksIt() throws {
        let tags = ItemAttribute(.transformable, name: "tags") { $0.transformableValueType = [String].self }
        #expect(isValid(tags, ["a", "b"]))
        let error = try onlyError(tags, 5)
        #expect(error.code == .validationWrongType)
        #expect(error.message.contains("Array<String>"))
        #expect(isValid(ItemAttribute(.transformable), 5))
    }

    // MARK: - Number and date ranges

    @Test func numbersOutsideTheirRangeAreErrors() throws {
        let score = ItemAttribute(.integer64, name: "score") { $0.minValue = 1; $0.maxValue = 10 }
        let small = try onlyError(score, 0)
        #expect(small.code == .validationNumberTooSmall)
        #expect(small.message == "Item.score is too small: 0, at least 1.")
        let large = try onlyError(score, Int64(11))
        #expect(large.code == .validationNumberTooLarge)
        #expect(large.message == "Item.score is too large: 11, at most 10.")
        #expect(isValid(score, 1) && isValid(score, 10))

        let ratio = ItemAttribute(.double) { $0.minValue = 0; $0.maxValue = 0.5 }
        #expect(try onlyError(ratio, 0.75).message.contains("at most 0.5"))
        #expect(try onlyError(ratio, -0.1).code == .validationNumberTooSmall)
        let price = ItemAttribute(.decimal) { $0.maxValue = 100 }
        #expect(try onlyError(price, Decimal(string: "100.01")!).code == .validationNumberTooLarge)
        #expect(isValid(price, Decimal(string: "99.99")!))
        let level = ItemAttribute(.float) { $0.minValue = 1 }
        #expect(try onlyError(level, Float(0.5)).code == .validationNumberTooSmall)
    }

    @Test func datesOutsideTheirRangeAreErrors() throws {
        let due = ItemAttribute(.date, name: "due") { $0.minValue = 0; $0.maxValue = 86_400 }
        let early = try onlyError(due, Date(timeIntervalSinceReferenceDate: -1))
        #expect(early.code == .validationDateTooSoon)
        #expect(early.message == "Item.due is too early: 2000-12-31T23:59:59Z, not before 2001-01-01T00:00:00Z.")
        let late = try onlyError(due, Date(timeIntervalSinceReferenceDate: 86_401))
        #expect(late.code == .validationDateTooLate)
        #expect(late.message.contains("not after 2001-01-02T00:00:00Z"))
        #expect(isValid(due, Date(timeIntervalSinceReferenceDate: 86_400)))
    }

    // MARK: - Lengths

    @Test func stringLengthsCountCharacters() throws {
        let title = ItemAttribute(.string, name: "title") { $0.minLength = 2; $0.maxLength = 10 }
        let long = try onlyError(title, "twelve chars")
        #expect(long.code == .validationStringTooLong)
        #expect(long.message == "Item.title is too long: 12 characters, at most 10.")
        let short = try onlyError(title, "a")
        #expect(short.code == .validationStringTooShort)
        #expect(short.message == "Item.title is too short: 1 character, at least 2.")
        #expect(isValid(title, "👩‍👩‍👧‍👦🇫🇷"))
    }

    @Test func dataLengthsCountBytes() throws {
        let blob = ItemAttribute(.binaryData, name: "blob") { $0.minLength = 1; $0.maxLength = 3 }
        let long = try onlyError(blob, Data([1, 2, 3, 4]))
        #expect(long.code == .validationStringTooLong)
        #expect(long.message == "Item.blob is too long: 4 bytes, at most 3.")
        #expect(try onlyError(blob, Data()).code == .validationStringTooShort)
        #expect(isValid(blob, Data([1, 2, 3])))
    }

    // MARK: - Regular expressions

    @Test func stringsMustMatchTheWholePattern() throws {
        let code = ItemAttribute(.string, name: "code") { $0.regularExpression = "[A-Z]{2}[0-9]+" }
        #expect(isValid(code, "AB12"))
        let error = try onlyError(code, "AB12x")
        #expect(error.code == .validationStringPatternMatching)
        #expect(error.message == "Item.code does not match the pattern '[A-Z]{2}[0-9]+': \"AB12x\".")
        #expect(!isValid(code, "xAB12"))
        #expect(!isValid(code, "AB12\n"))
        let either = ItemAttribute(.string) { $0.regularExpression = "a|ab" }
        #expect(isValid(either, "ab"))
    }

    @Test func anInvalidPatternIsReportedNotTrapped() throws {
        let code = ItemAttribute(.string, name: "code") { $0.regularExpression = "a)(?:b" }
        let error = try onlyError(code, "ab")
        #expect(error.code == .validationStringPatternMatching)
        #expect(error.message.contains("invalid regular expression 'a)(?:b'"))
    }

    @Test func aWrongTypeIsTheOnlyErrorReported() throws {
        let title = ItemAttribute(.string) { $0.maxLength = 1; $0.regularExpression = "x" }
        #expect(try onlyError(title, 12345).code == .validationWrongType)
    }
}
