import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

@Suite struct FetchRequestTests {
    private func count(_ stack: TestStack, _ request: FetchRequest<ManagedObject>) throws -> Int {
        try stack.context.performAndWait { try stack.context.count(for: request) }
    }

    // MARK: - Windows and result types

    @Test(arguments: StoreKind.allCases)
    func fetchLimitAndOffset(kind: StoreKind) throws {
        let stack = try TestStack.tenSamples(kind)
        let plain = try stack.request()
        plain.fetchLimit = 3
        #expect(try stack.keys(plain) == ["k0", "k1", "k2"])
        plain.fetchOffset = 2
        #expect(try stack.keys(plain) == ["k2", "k3", "k4"])
        #expect(try count(stack, plain) == 3)
        plain.fetchOffset = 9
        #expect(try stack.keys(plain) == ["k9"])
        #expect(try count(stack, plain) == 1)
        plain.fetchOffset = 10
        #expect(try stack.keys(plain).isEmpty)
        plain.fetchLimit = 0
        plain.fetchOffset = 7
        #expect(try stack.keys(plain) == ["k7", "k8", "k9"])

        let sorted = try stack.request(sortedBy: ["int64"])
        sorted.fetchOffset = 1
        sorted.fetchLimit = 3
        #expect(try stack.keys(sorted) == ["k8", "k7", "k6"])
        let filtered = try stack.request("group == 'even'", sortedBy: ["-key"])
        filtered.fetchOffset = 1
        filtered.fetchLimit = 2
        #expect(try stack.keys(filtered) == ["k6", "k4"])
        #expect(try count(stack, filtered) == 2)
    }

    @Test(arguments: StoreKind.allCases)
    func includesSubentities(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.people(), kind: kind)
        try stack.context.performAndWait {
            _ = stack.insert("Employee", ["name": "Ada"])
            _ = stack.insert("Employee", ["name": "Grace"])
            _ = stack.insert("Contractor", ["name": "Bob"])
            try stack.context.save()
            stack.context.reset()
            // Matching "name != 'Grace'": Ada and Bob.
            for (entity, includes, expected) in [("Person", true, 2), ("Person", false, 0), ("Employee", false, 1), ("Contractor", true, 1)] {
                let request = FetchRequest<ManagedObject>(entityName: entity)
                request.includesSubentities = includes
                request.predicate = try CDPredicate(format: "name != 'Grace'")
                #expect(try stack.context.fetch(request).count == expected, "\(entity) \(includes)")
                #expect(try stack.context.count(for: request) == expected, "\(entity) \(includes)")
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func objectIDAndCountResults(kind: StoreKind) throws {
        let stack = try TestStack.tenSamples(kind)
        let fresh = stack.newContext()
        try fresh.performAndWait {
            let ids = FetchRequest<ManagedObjectID>(entityName: "Sample")
            ids.resultType = .managedObjectIDResultType
            ids.predicate = try CDPredicate(format: "group == 'odd'")
            ids.sortDescriptors = [CDSortDescriptor(key: "int64")]
            let found = try fresh.fetch(ids)
            #expect(fresh.registeredObjects.isEmpty)
            #expect(found.allSatisfy { !$0.isTemporaryID && $0.entity.name == "Sample" })
            #expect(try found.map { try fresh.existingObject(with: $0).value(forKey: "key") as? String } == ["k9", "k7", "k5", "k3", "k1"])

            let count = FetchRequest<NSNumber>(entityName: "Sample")
            count.resultType = .countResultType
            count.predicate = try CDPredicate(format: "int64 >= 5")
            #expect(try fresh.fetch(count) == [NSNumber(value: 5)])
            count.fetchLimit = 2
            #expect(try fresh.fetch(count) == [NSNumber(value: 2)])
            #expect(try fresh.count(for: count) == 2)
            for format in ["TRUEPREDICATE", "FALSEPREDICATE", "group == 'even' AND int64 < 3", "key == nil"] {
                let request = try stack.request(format)
                #expect(try fresh.count(for: request) == fresh.fetch(request).count, "\(format)")
            }
        }
    }

    // MARK: - Predicates

    /// Three increasing values per attribute (two for booleans); the middle one is compared with.
    private static func increasingValues() -> [(key: String, values: [Any])] {
        [
            ("int16", [Int16(-5), Int16(0), Int16(300)]),
            ("int32", [Int32(-70_000), Int32(1), Int32(70_000)]),
            ("int64", [Int64(-5_000_000_000), Int64(0), Int64(5_000_000_000)]),
            ("decimal", [Decimal(string: "-1.5")!, Decimal(string: "0.25")!, Decimal(string: "12.75")!]),
            ("double", [-2.5, 0.1, 1e300]),
            ("float", [Float(-1.5), Float(0.25), Float(3.5)]),
            ("string", ["Zebra", "apple", "été"]),
            ("flag", [false, true]),
            ("date", [-1000.0, 0, 1e9].map { Date(timeIntervalSinceReferenceDate: $0) }),
            ("data", [Data([0]), Data([0, 1]), Data([1])]),
            ("uuid", ["00000000-0000-0000-0000-000000000001", "7FFFFFFF-0000-0000-0000-000000000000",
                      "FFFFFFFF-0000-0000-0000-000000000000"].map { UUID(uuidString: $0)! }),
            ("uri", ["https://a.example/", "https://b.example/x", "mailto:z@example.org"].map { URL(string: $0)! }),
        ]
    }

    @Test(arguments: StoreKind.allCases)
    func comparisonsOnEveryAttributeType(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.samples(), kind: kind)
        let table = Self.increasingValues()
        try stack.context.performAndWait {
            for (key, values) in table {
                for (index, value) in values.enumerated() { _ = stack.insert("Sample", ["key": "\(key)\(index)", "group": key, key: value]) }
                _ = stack.insert("Sample", ["key": "\(key)-nil", "group": key])
            }
            try stack.context.save()
            stack.context.reset()
        }
        let operators: [(String, (Int, Int) -> Bool)] = [("==", (==)), ("!=", (!=)), ("<", (<)), ("<=", (<=)), (">", (>)), (">=", (>=))]
        for (key, values) in table {
            let pivot = 1
            for (symbol, holds) in operators {
                var expected = values.indices.filter { holds($0, pivot) }.map { "\(key)\($0)" }
                if symbol == "!=" { expected.insert("\(key)-nil", at: 0) }
                let request = try stack.request("group == %@ AND %K \(symbol) %@", [key, key, values[pivot]], sortedBy: ["key"])
                #expect(try stack.keys(request) == expected, "\(key) \(symbol)")
                let none = try stack.request("group == %@ AND %K \(symbol) nil", [key, key], sortedBy: ["key"])
                let nilExpected = symbol == "==" ? ["\(key)-nil"] : symbol == "!=" ? values.indices.map { "\(key)\($0)" } : []
                #expect(try stack.keys(none) == nilExpected, "\(key) \(symbol) nil")
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func argumentsOfManySwiftTypes(kind: StoreKind) throws {
        let stack = try TestStack(model: Models.samples(), kind: kind)
        let date = Date(timeIntervalSinceReferenceDate: 12_345.5)
        let uuid = UUID()
        let url = URL(string: "https://example.org/five")!
        try stack.context.performAndWait {
            let other = stack.insert("Sample", ["key": "other"])
            _ = stack.insert("Sample", [
                "key": "five", "int16": 5, "int32": 5, "int64": 5, "decimal": 5, "double": 5, "float": 5, "flag": true,
                "string": "five", "date": date, "data": Data([5]), "uuid": uuid, "uri": url, "parent": other,
            ])
            try stack.context.save()
            stack.context.reset()
        }
        let numbers: [Any] = [5, Int8(5), Int16(5), Int32(5), Int64(5), UInt(5), UInt8(5), UInt16(5), UInt32(5), UInt64(5),
                              Float(5), 5.0, Decimal(5), NSNumber(value: 5), NSDecimalNumber(value: 5), Optional(5) as Any]
        var cases: [(String, Any?)] = []
        for key in ["int16", "int32", "int64", "decimal", "double", "float"] { cases += numbers.map { ("\(key) == %@", $0) } }
        cases += [("flag == %@", true), ("flag == %@", NSNumber(value: true)), ("flag == %@", 1),
                  ("string == %@", "five"), ("string == %@", Substring("five")), ("string == %@", NSString(string: "five")),
                  ("date == %@", date), ("date == %@", NSDate(timeIntervalSinceReferenceDate: 12_345.5)),
                  ("data == %@", Data([5])), ("data == %@", NSData(bytes: [5] as [UInt8], length: 1)),
                  ("uuid == %@", uuid), ("uuid == %@", NSUUID(uuidString: uuid.uuidString)!),
                  ("uri == %@", url), ("uri == %@", NSURL(string: url.absoluteString)!)]
        for (format, argument) in cases {
            #expect(try stack.keys(stack.request(format, [argument])) == ["five"], "\(format) \(type(of: argument as Any))")
        }
        for key in ["int64", "string", "date", "uuid", "parent"] {
            #expect(try stack.keys(stack.request("%K == %@", [key, nil])) == ["other"], "\(key) nil")
            #expect(try stack.keys(stack.request("%K == %@", [key, NSNull()])) == ["other"], "\(key) NSNull")
            #expect(try stack.keys(stack.request("%K == %@", [key, Optional<Int>.none as Any])) == ["other"], "\(key) Optional.none")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func logicalOperators(kind: StoreKind) throws {
        let stack = try TestStack.tenSamples(kind)
        let cases: [(String, [String])] = [
            ("group == 'even' AND int64 > 4", ["k0", "k2", "k4"]),
            ("group == 'odd' OR int64 == 9", ["k0", "k1", "k3", "k5", "k7", "k9"]),
            ("NOT (group == 'odd')", ["k0", "k2", "k4", "k6", "k8"]),
            ("NOT (int64 < 3 OR key == 'k0') AND NOT group == 'even'", ["k1", "k3", "k5"]),
            ("(key == 'k1' OR key == 'k2') AND (int64 == 8 OR int64 == 0)", ["k1"]),
        ]
        for (format, expected) in cases {
            #expect(try stack.keys(stack.request(format, sortedBy: ["key"])) == expected, "\(format)")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func keyPathsThroughToOneRelationships(kind: StoreKind) throws {
        let (stack, _, _) = try TestStack.sampleChain(kind)
        let cases: [(String, [String])] = [
            ("parent.key == 'root'", ["mid"]),
            ("parent.parent.string == 'top'", ["leaf"]),
            ("parent.string == nil", ["leaf", "root"]),
            ("parent.parent.parent.key == nil", ["leaf", "mid", "root"]),
            ("parent == nil", ["root"]),
            ("parent != nil", ["leaf", "mid"]),
        ]
        for (format, expected) in cases {
            #expect(try stack.keys(stack.request(format, sortedBy: ["key"])) == expected, "\(format)")
        }
    }

    /// `parent == %@` and `SELF == %@` with objects and IDs, in a fresh context.
    static func checkObjectComparisons(_ kind: StoreKind) throws {
        let (stack, rootID, midID) = try TestStack.sampleChain(kind)
        let fresh = stack.newContext()
        try fresh.performAndWait {
            let root = try fresh.existingObject(with: rootID)
            let cases: [(String, [Any?], [String])] = [
                ("parent == %@", [root], ["mid"]),
                ("parent == %@", [midID], ["leaf"]),
                ("parent != %@", [root], ["leaf", "root"]),
                ("SELF == %@", [root], ["root"]),
                ("SELF != %@", [midID], ["leaf", "root"]),
                ("parent.parent == %@ OR SELF == %@", [rootID, rootID], ["leaf", "root"]),
            ]
            for (format, arguments, expected) in cases {
                #expect(try stack.keys(stack.request(format, arguments, sortedBy: ["key"]), in: fresh) == expected, "\(format)")
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func comparisonsWithObjectsAndSELF(kind: StoreKind) throws {
        try Self.checkObjectComparisons(kind)
    }

    @Test(arguments: StoreKind.allCases)
    func sortDescriptorsOnSeveralKeysDescendingAndThroughAToOnePath(kind: StoreKind) throws {
        let stack = try TestStack.tenSamples(kind)
        #expect(try stack.keys(stack.request(sortedBy: ["group", "-int64"])) == ["k0", "k2", "k4", "k6", "k8", "k1", "k3", "k5", "k7", "k9"])
        #expect(try stack.keys(stack.request(sortedBy: ["-group", "int64"])) == ["k9", "k7", "k5", "k3", "k1", "k8", "k6", "k4", "k2", "k0"])
        try stack.context.performAndWait {
            let all = try stack.context.fetch(stack.request(sortedBy: ["key"]))
            for (child, parent) in [(0, 3), (1, 2), (3, 0), (4, 2)] { all[child].setValue(all[parent], forKey: "parent") }
            try stack.context.save()
            stack.context.reset()
        }
        let byParent = try stack.keys(stack.request("key <= 'k4'", sortedBy: ["parent.key", "key"]))
        #expect(byParent == ["k2", "k3", "k1", "k4", "k0"])
        let descending = try stack.keys(stack.request("key <= 'k4'", sortedBy: ["-parent.key", "-key"]))
        #expect(descending == ["k0", "k4", "k1", "k3", "k2"])
    }

    // MARK: - Errors

    /// Unknown keys in predicates throw from `fetch` and `count(for:)`, naming the key;
    /// the in-memory store's case is in `KnownBugTests`.
    static func checkUnknownPredicateKeys(_ kind: StoreKind) throws {
        let stack = try TestStack.tenSamples(kind)
        try stack.context.performAndWait {
            for format in ["nosuch == 1", "parent.nosuch == 'x'", "key == 'k1' OR nosuch == nil"] {
                let request = try stack.request(format)
                let error = try #require(throws: CoreDataError.self, "\(format)") { try stack.context.fetch(request) }
                #expect([.invalidFetchRequest, .invalidPredicate].contains(error.code), "\(format)")
                #expect(error.message.contains("nosuch"), "\(format)")
                #expect(throws: CoreDataError.self, "\(format)") { try stack.context.count(for: request) }
            }
        }
    }

    @Test func unknownKeysInPredicatesThrow() throws {
        try Self.checkUnknownPredicateKeys(.sqlite)
    }

    @Test(arguments: StoreKind.allCases)
    func unknownSortKeysAndEntitiesThrowInvalidFetchRequest(kind: StoreKind) throws {
        let stack = try TestStack.tenSamples(kind)
        try stack.context.performAndWait {
            for key in ["nosuch", "parent.nosuch"] {
                let request = try stack.request(sortedBy: [key])
                let error = try #require(throws: CoreDataError.self, "\(key)") { try stack.context.fetch(request) }
                #expect(error.code == .invalidFetchRequest, "\(key)")
                #expect(error.message.contains("nosuch"), "\(key)")
            }
            let error = try #require(throws: CoreDataError.self) { try stack.context.fetch(FetchRequest<ManagedObject>(entityName: "Nope")) }
            #expect(error.code == .invalidFetchRequest)
            #expect(error.message.contains("Nope"))
            #expect(throws: CoreDataError.self) { try stack.context.count(for: FetchRequest<ManagedObject>(entityName: "Nope")) }
        }
    }
}
