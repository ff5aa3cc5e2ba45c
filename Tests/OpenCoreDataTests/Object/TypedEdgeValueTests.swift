import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Edge values of every attribute type, written and read through `@Managed` accessors
/// (the typed slot paths), saved, and read back from a fresh context of each store.
@Suite struct TypedEdgeValueTests {
    /// One set of values for every attribute of `Specimen`.
    struct Values: CustomTestStringConvertible {
        var name: String
        var text: String
        var small: Int16
        var medium: Int32
        var large: Int64
        var real: Double
        var single: Float
        var flag: Bool
        var amount: Decimal
        var when: Date
        var blob: Data
        var identifier: UUID
        var link: URL
        var maybeText: String?
        var maybeLarge: Int64?

        var testDescription: String { name }

        func write(to specimen: Specimen) {
            specimen.text = text
            specimen.small = small
            specimen.medium = medium
            specimen.large = large
            specimen.real = real
            specimen.single = single
            specimen.flag = flag
            specimen.amount = amount
            specimen.when = when
            specimen.blob = blob
            specimen.identifier = identifier
            specimen.link = link
            specimen.maybeText = maybeText
            specimen.maybeLarge = maybeLarge
        }

        /// The values as a store gives them back: a negative zero comes back `+0.0`, as
        /// from Core Data's SQLite store (docs/reliability.md, "Numbers are kept …").
        var saved: Values {
            var saved = self
            if real == 0 { saved.real = 0 }
            if single == 0 { saved.single = 0 }
            return saved
        }

        /// Expects `specimen` to hold exactly these values (floating point by bit pattern).
        func expectHeld(by specimen: Specimen) {
            #expect(specimen.text == text)
            #expect(specimen.small == small)
            #expect(specimen.medium == medium)
            #expect(specimen.large == large)
            #expect(specimen.real.bitPattern == real.bitPattern, "real \(specimen.real) ≠ \(real)")
            #expect(specimen.single.bitPattern == single.bitPattern, "single \(specimen.single) ≠ \(single)")
            #expect(specimen.flag == flag)
            #expect(specimen.amount == amount)
            #expect(specimen.when == when)
            #expect(specimen.blob == blob)
            #expect(specimen.identifier == identifier)
            #expect(specimen.link == link)
            #expect(specimen.maybeText == maybeText)
            #expect(specimen.maybeLarge == maybeLarge)
        }
    }

    static let cases: [Values] = [
        Values(
            name: "minimums", text: "", small: .min, medium: .min, large: .min,
            real: -.greatestFiniteMagnitude, single: -.greatestFiniteMagnitude, flag: false,
            amount: Decimal(-9_007_199_254_740_992), when: .distantPast, blob: Data(),
            identifier: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
            link: URL(fileURLWithPath: "/"), maybeText: "", maybeLarge: .min
        ),
        Values(
            name: "maximums", text: String(repeating: "long text past the small-string size ", count: 2_000),
            small: .max, medium: .max, large: .max,
            real: .greatestFiniteMagnitude, single: .greatestFiniteMagnitude, flag: true,
            amount: Decimal(9_007_199_254_740_992), when: .distantFuture,
            blob: Data((0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }),
            identifier: UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255)),
            link: URL(string: "https://example.com/" + String(repeating: "p/", count: 500) + "?q=%20&r=ü")!,
            maybeText: nil, maybeLarge: .max
        ),
        Values(
            name: "tiny and signed zeros", text: "nul\u{0}inside, emoji 👩‍👩‍👧, combining e\u{301}",
            small: 0, medium: -1, large: 0,
            real: -0.0, single: -0.0, flag: false,
            amount: Decimal(string: "-0.5")!, when: Date(timeIntervalSinceReferenceDate: -0.000_001),
            blob: Data([0]), identifier: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
            link: URL(string: "x-coredata://A/B/p1")!, maybeText: "\u{0}", maybeLarge: 0
        ),
        Values(
            name: "infinities and subnormals", text: "∞", small: 1, medium: 1, large: 1,
            real: .leastNonzeroMagnitude, single: .leastNonzeroMagnitude, flag: true,
            amount: Decimal(string: "0.125")!, when: Date(timeIntervalSince1970: 0),
            blob: Data(repeating: 0xFF, count: 15), identifier: UUID(),
            link: URL(string: "mailto:a@b.c")!, maybeText: "x", maybeLarge: -1
        ),
        Values(
            name: "infinite floats", text: "inf", small: -1, medium: 0, large: -1,
            real: -.infinity, single: .infinity, flag: false,
            amount: Decimal(0), when: Date(timeIntervalSinceReferenceDate: 1e10),
            blob: Data(repeating: 7, count: 16), identifier: UUID(),
            link: URL(string: "file:///tmp/a%20b")!, maybeText: nil, maybeLarge: nil
        ),
    ]

    static var arguments: [(StoreKind, Values)] {
        StoreKind.allCases.flatMap { kind in cases.map { (kind, $0) } }
    }

    @Test(arguments: arguments)
    func edgeValuesRoundTrip(_ kind: StoreKind, _ values: Values) throws {
        let stack = try TestStack(model: ManagedAccessorTests.specimenModel(), kind: kind)
        let id = try stack.context.performAndWait {
            let specimen = Specimen(context: stack.context)
            values.write(to: specimen)
            values.expectHeld(by: specimen)
            try stack.context.save()
            return specimen.objectID
        }
        // A fresh context of the same coordinator (row cache), then a fresh coordinator
        // on the same file (the store's own encoding).
        let other = stack.newContext()
        try other.performAndWait {
            values.saved.expectHeld(by: try #require(other.existingObject(with: id) as? Specimen))
        }
        guard kind == .sqlite else { return }
        let reopened = try stack.reopened()
        try reopened.context.performAndWait {
            let fetched = try reopened.context.fetch(FetchRequest<Specimen>())
            #expect(fetched.count == 1)
            values.saved.expectHeld(by: try #require(fetched.first))
        }
    }

    /// Writing the value a property already holds through a typed setter is no change.
    @Test(arguments: StoreKind.allCases)
    func writingTheSameValueIsNoChange(_ kind: StoreKind) throws {
        let stack = try TestStack(model: ManagedAccessorTests.specimenModel(), kind: kind)
        try stack.context.performAndWait {
            let specimen = Specimen(context: stack.context)
            Self.cases[2].write(to: specimen)
            try stack.context.save()
            Self.cases[2].write(to: specimen)
            #expect(!specimen.hasChanges)
            #expect(!stack.context.hasChanges)
            specimen.medium = 5
            #expect(specimen.changedValues().keys.sorted() == ["medium"])
        }
    }

    /// A NaN written through a typed setter fails the save with a typed error, and the
    /// context keeps every change for a retry.
    @Test(arguments: StoreKind.allCases)
    func aNaNFailsTheSaveAndKeepsTheChanges(_ kind: StoreKind) throws {
        let stack = try TestStack(model: ManagedAccessorTests.specimenModel(), kind: kind)
        try stack.context.performAndWait {
            let specimen = Specimen(context: stack.context)
            Self.cases[0].write(to: specimen)
            specimen.real = .nan
            let error = #expect(throws: CoreDataError.self) { try stack.context.save() }
            #expect(error?.message.contains("real") == true)
            #expect(specimen.isInserted && specimen.real.isNaN)
            specimen.real = 1
            try stack.context.save()
            #expect(!specimen.hasChanges)
        }
    }
}
