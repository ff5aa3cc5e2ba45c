import Foundation
import Testing
@testable import OpenCoreData

@Suite struct ValueTransformerTests {
    private struct Color: Codable, Sendable, Equatable { var red, green, blue: Double }


    /// A registry name no other test uses (the registry is shared by parallel tests).
    private func uniqueName(_ base: String = #function) -> String { "\(base)-\(UUID().uuidString)" }

    // MARK: - Named transformers

    @Test func aNamedTransformerStoresTheValue() throws {
        let name = uniqueName()
        ValueTransformerRegistry.setValueTransformer(ReversingTransformer(), forName: name)
        let motto = ItemAttribute(.transformable, name: "motto") { $0.valueTransformerName = name }
        let stored = try motto.attribute.sqlValue(for: "abc")
        #expect(stored == .blob(Data("cba".utf8)))
        #expect(try motto.attribute.value(from: stored) as? String == "abc")
    }

    @Test func theRegistryReplacesAndRemovesTransformers() throws {
        let name = uniqueName()
        #expect(ValueTransformerRegistry.valueTransformer(forName: name) == nil)
        ValueTransformerRegistry.setValueTransformer(ReversingTransformer(), forName: name)
        #expect(ValueTransformerRegistry.valueTransformer(forName: name) is ReversingTransformer)
        ValueTransformerRegistry.setValueTransformer(CodableValueTransformer(Int.self), forName: name)
        #expect(ValueTransformerRegistry.valueTransformer(forName: name) is CodableValueTransformer<Int>)
        ValueTransformerRegistry.setValueTransformer(nil, forName: name)
        #expect(ValueTransformerRegistry.valueTransformer(forName: name) == nil)
    }

    @Test func aMissingTransformerFailsOnlyWhenUsed() throws {
        let motto = ItemAttribute(.transformable, name: "motto") { $0.valueTransformerName = "NobodyRegisteredThis" }
        #expect(try motto.attribute.sqlValue(for: nil) == .null)
        let error = try #require(throws: CoreDataError.self) { try motto.attribute.sqlValue(for: "abc") }
        #expect(error.code == .transformerFailed)
        #expect(error.key == "motto")
        #expect(error.message.contains("Item.motto"))
        #expect(error.message.contains("no value transformer named 'NobodyRegisteredThis' is registered"))
        let reading = try #require(throws: CoreDataError.self) { try motto.attribute.value(from: .blob(Data())) }
        #expect(reading.code == .transformerFailed)
    }

    @Test func aFailingTransformerIsReportedAsTransformerFailed() throws {
        let name = uniqueName()
        ValueTransformerRegistry.setValueTransformer(ReversingTransformer(), forName: name)
        let motto = ItemAttribute(.transformable, name: "motto") { $0.valueTransformerName = name }
        let error = try #require(throws: CoreDataError.self) { try motto.attribute.sqlValue(for: 42) }
        #expect(error.code == .transformerFailed)
        #expect(error.key == "motto")
        #expect(error.message.contains("NotAString"))
    }

    // MARK: - The Codable default

    @Test func aSwiftValueTypeIsStoredAsABinaryPropertyList() throws {
        let color = ItemAttribute(.transformable, name: "color") { $0.transformableValueType = Color.self }
        let value = Color(red: 0.1, green: 0.5, blue: 1)
        let stored = try color.attribute.sqlValue(for: value)
        guard case .blob(let data) = stored else { Issue.record("not a blob: \(stored)"); return }
        #expect(data.starts(with: Data("bplist00".utf8)))
        #expect(try color.attribute.value(from: stored) as? Color == value)
    }

    @Test func scalarsAndCollectionsRoundTrip() throws {
        let values: [(any (Codable & Sendable).Type, Any, (Any?) -> Bool)] = [
            (Int.self, 42, { $0 as? Int == 42 }),
            (String.self, "hi", { $0 as? String == "hi" }),
            ([String: [Double]].self, ["a": [1.5]], { $0 as? [String: [Double]] == ["a": [1.5]] }),
            (Date.self, Date(timeIntervalSinceReferenceDate: 3), { $0 as? Date == Date(timeIntervalSinceReferenceDate: 3) }),
        ]
        for (type, value, equals) in values {
            let field = ItemAttribute(.transformable) { $0.transformableValueType = type }
            #expect(equals(try field.attribute.value(from: field.attribute.sqlValue(for: value))), "\(type)")
        }
    }

    @Test func aValueOfAnotherTypeIsNotTransformed() throws {
        let color = ItemAttribute(.transformable, name: "color") { $0.transformableValueType = Color.self }
        let error = try #require(throws: CoreDataError.self) { try color.attribute.sqlValue(for: "red") }
        #expect(error.code == .transformerFailed)
        #expect(error.message.contains("String"))
    }

    @Test func dataThatIsNotAPropertyListIsReportedAsTransformerFailed() throws {
        let color = ItemAttribute(.transformable, name: "color") { $0.transformableValueType = Color.self }
        let error = try #require(throws: CoreDataError.self) { try color.attribute.value(from: .blob(Data([1, 2, 3]))) }
        #expect(error.code == .transformerFailed)
        #expect(error.key == "color")
    }

    @Test func aLoadedModelsClassNameIsBoundToACodableType() throws {
        let className = uniqueName("Color")
        let color = ItemAttribute(.transformable, name: "color") { $0.attributeValueClassName = className }
        let missing = try #require(throws: CoreDataError.self) { try color.attribute.sqlValue(for: Color(red: 1, green: 0, blue: 0)) }
        #expect(missing.code == .transformerFailed)
        #expect(missing.message.contains("no Codable type is registered for class name '\(className)'"))

        ValueTransformerRegistry.registerCodableType(Color.self, forClassName: className)
        let stored = try color.attribute.sqlValue(for: Color(red: 1, green: 0, blue: 0))
        #expect(try color.attribute.value(from: stored) as? Color == Color(red: 1, green: 0, blue: 0))
    }

    @Test func foundationClassNamesAreBuiltIn() throws {
        for (className, value) in [("NSString", "s" as Any), ("[String]", ["a"]), ("Array<String>", ["b"]), ("NSDate", Date())] {
            let field = ItemAttribute(.transformable) { $0.attributeValueClassName = className }
            let back = try field.attribute.value(from: field.attribute.sqlValue(for: value))
            #expect("\(back ?? "nil")" == "\(value)", "\(className)")
        }
    }

    @Test func applesArchiveTransformerNamesMeanTheDefault() throws {
        let tags = ItemAttribute(.transformable) {
            $0.valueTransformerName = "NSSecureUnarchiveFromDataTransformer"
            $0.transformableValueType = [String].self
        }
        #expect(try tags.attribute.value(from: tags.attribute.sqlValue(for: ["x", "y"])) as? [String] == ["x", "y"])
    }

    @Test func anAttributeWithoutAnyTransformerInformationFails() throws {
        let blob = ItemAttribute(.transformable, name: "blob")
        let error = try #require(throws: CoreDataError.self) { try blob.attribute.sqlValue(for: 1) }
        #expect(error.code == .transformerFailed)
        #expect(error.message.contains("no valueTransformerName"))
    }

    // MARK: - Thread safety

    @Test func theRegistryIsSafeToUseConcurrently() async {
        let base = uniqueName()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask {
                    ValueTransformerRegistry.setValueTransformer(ReversingTransformer(), forName: "\(base)-\(index % 10)")
                    ValueTransformerRegistry.registerCodableType(Color.self, forClassName: "\(base)-\(index % 10)")
                    _ = ValueTransformerRegistry.valueTransformer(forName: "\(base)-\((index + 5) % 10)")
                }
            }
        }
        for index in 0..<10 {
            #expect(ValueTransformerRegistry.valueTransformer(forName: "\(base)-\(index)") != nil)
            #expect(ValueTransformerRegistry.codableType(forClassName: "\(base)-\(index)") == Color.self)
        }
    }
}
