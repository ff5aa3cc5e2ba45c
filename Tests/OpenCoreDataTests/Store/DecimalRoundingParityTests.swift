import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// A 38-digit `Decimal` came back rounded and `-0.0` came back `+0.0` from SQLite (as from
/// Core Data's store) but exact from the in-memory store. The in-memory store now rounds
/// as SQLite does, so both return identical values.
@Suite struct DecimalRoundingParityTests {
    /// The values each sample holds after a save and a fresh fetch, by key.
    private func roundTrip(_ kind: StoreKind, _ samples: [[String: Any]], batchUpdate: [String: Any]? = nil) throws -> [String: [String: String]] {
        let stack = try TestStack(model: Models.samples(), kind: kind)
        return try stack.context.performAndWait {
            for values in samples { _ = stack.insert("Sample", values) }
            try stack.context.save()
            if let batchUpdate {
                let request = BatchUpdateRequest(entityName: "Sample")
                request.propertiesToUpdate = batchUpdate
                _ = try stack.context.execute(request)
            }
            stack.context.reset()
            var result: [String: [String: String]] = [:]
            for object in try stack.context.fetch(stack.request()) {
                var shown: [String: String] = [:]
                for key in ["decimal", "double", "float", "date"] {
                    switch object.value(forKey: key) {
                    case let number as Double: shown[key] = "\(number.sign == .minus ? "-" : "+")\(number)"
                    case let number as Float: shown[key] = "\(number.sign == .minus ? "-" : "+")\(number)"
                    case let date as Date: shown[key] = "\(date.timeIntervalSinceReferenceDate.sign == .minus ? "-" : "+")\(date.timeIntervalSinceReferenceDate)"
                    case let value?: shown[key] = "\(value)"
                    case nil: break
                    }
                }
                result[object.value(forKey: "key") as? String ?? "?"] = shown
            }
            return result
        }
    }

    private static let digits38 = Decimal(string: "1234567890.1234567890123456789012345678")!

    @Test func bothStoresReturnTheSameRoundedValues() throws {
        let samples: [[String: Any]] = [
            ["key": "long", "decimal": Self.digits38],
            ["key": "zero", "double": -0.0, "float": Float(-0.0), "date": Date(timeIntervalSinceReferenceDate: -0.0), "decimal": Decimal(0)],
            ["key": "tenth", "decimal": Decimal(string: "0.1")!, "double": 0.1],
            ["key": "max", "decimal": Decimal(Int64.max), "double": 1e300],
            ["key": "min", "decimal": Decimal(Int64.min), "double": -Double.infinity],
            ["key": "huge", "decimal": Decimal(string: "123456789012345678901234567890")!],
            ["key": "close", "decimal": Decimal(string: "0.1000000000000000000001")!],
            ["key": "negative", "decimal": Decimal(string: "-98765432109876543210.5")!],
            // SQLite's text-to-REAL conversion is not the nearest double here (seed 11240962431072695242).
            ["key": "sqliteRounding", "decimal": Decimal(string: "-292181846092006889639724669438.50141401")!],
        ]
        let sqlite = try roundTrip(.sqlite, samples)
        let memory = try roundTrip(.inMemory, samples)
        #expect(sqlite == memory)
        #expect(memory["long"]?["decimal"] == "1234567890.1234567")
        #expect(memory["zero"] == ["double": "+0.0", "float": "+0.0", "date": "+0.0", "decimal": "0"])
        #expect(memory["max"]?["decimal"] == "\(Int64.max)")
        #expect(memory["close"]?["decimal"] == "0.1")
        #expect(memory["sqliteRounding"]?["decimal"] == "-292181846092006870000000000000")
    }

    @Test func batchUpdatesRoundTheSameWay() throws {
        let samples: [[String: Any]] = [["key": "a", "double": 1.0], ["key": "b", "double": 0.0]]
        let update: [String: Any] = ["decimal": Self.digits38, "double": CDExpression(forFunction: "multiply:by:", arguments: [.keyPath("double"), .constant(.double(-1))])]
        let sqlite = try roundTrip(.sqlite, samples, batchUpdate: update)
        let memory = try roundTrip(.inMemory, samples, batchUpdate: update)
        #expect(sqlite == memory)
        #expect(memory["b"]?["double"] == "+0.0")
        #expect(memory["a"]?["decimal"] == "1234567890.1234567")
    }

    /// Random decimals of up to 38 digits at random scales: both stores agree on each.
    @Test func randomDecimalsRoundAlike() throws {
        var random = SeededRandom.fromEnvironment(for: "DecimalRoundingParityTests")
        let samples: [[String: Any]] = (0..<300).map { index in
            let digits = String((0..<Int.random(in: 1...38, using: &random)).map { _ in Character(String(Int.random(in: 0...9, using: &random))) })
            let exponent = Int.random(in: -40...40, using: &random)
            let sign = random.chance(0.5) ? "-" : ""
            return ["key": "d\(index)", "decimal": Decimal(string: "\(sign)\(digits)e\(exponent)") ?? Decimal(index)]
        }
        let sqlite = try roundTrip(.sqlite, samples)
        let memory = try roundTrip(.inMemory, samples)
        let differing = sqlite.keys.filter { sqlite[$0] != memory[$0] }.sorted()
        #expect(differing.isEmpty, "seed \(random.seed): \(differing.prefix(5).map { "\($0): \(samples[Int($0.dropFirst())!]["decimal"]!) → SQLite \(sqlite[$0]!) memory \(memory[$0]!)" })")
    }
}
