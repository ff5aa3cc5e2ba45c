import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Transformable attributes through whole stores: saved, reopened, read back.
@Suite struct TransformableTests {
    struct Color: Codable, Sendable, Equatable { var red, green, blue: Double }


    /// `Doc`: a name, `motto` through the transformer registered as `transformerName`,
    /// `color` and `tags` through the Codable default.
    static func model(transformerName: String) -> ManagedObjectModel {
        let motto = AttributeDescription(name: "motto", type: .transformable)
        motto.valueTransformerName = transformerName
        let color = AttributeDescription(name: "color", type: .transformable)
        color.transformableValueType = Color.self
        let tags = AttributeDescription(name: "tags", type: .transformable)
        tags.transformableValueType = [String].self
        return ManagedObjectModel(entities: [
            EntityDescription(name: "Doc", properties: [AttributeDescription(name: "name", type: .string), motto, color, tags]),
        ])
    }

    /// A registry name no other test uses (the registry is shared by parallel tests).
    static func registeredName() -> String {
        let name = "TransformableTests-\(UUID().uuidString)"
        ValueTransformerRegistry.setValueTransformer(ReversingTransformer(), forName: name)
        return name
    }

    @Test(arguments: StoreKind.allCases)
    func namedAndCodableTransformablesRoundTrip(kind: StoreKind) throws {
        let stack = try TestStack(model: Self.model(transformerName: Self.registeredName()), kind: kind)
        let color = Color(red: 0.1, green: 0.5, blue: 1)
        try stack.context.performAndWait {
            _ = stack.insert("Doc", ["name": "full", "motto": "carpe diem", "color": color, "tags": ["a", "é", ""]])
            _ = stack.insert("Doc", ["name": "empty"])
            try stack.context.save()
        }
        let reader = kind == .sqlite ? try stack.reopened() : stack
        let context = kind == .sqlite ? reader.context : stack.newContext()
        try context.performAndWait {
            let docs = try context.fetch(reader.request(entity: "Doc", sortedBy: "name"))
            #expect(docs.map { $0.value(forKey: "name") as? String } == ["empty", "full"])
            #expect(docs[1].value(forKey: "motto") as? String == "carpe diem")
            #expect(docs[1].value(forKey: "color") as? Color == color)
            #expect(docs[1].value(forKey: "tags") as? [String] == ["a", "é", ""])
            #expect(docs[0].value(forKey: "motto") == nil && docs[0].value(forKey: "color") == nil && docs[0].value(forKey: "tags") == nil)
            docs[1].setValue(Color(red: 0, green: 0, blue: 0), forKey: "color")
            docs[1].setValue(nil, forKey: "motto")
            docs[0].setValue("new", forKey: "motto")
            try context.save()
        }
        let again = kind == .sqlite ? try stack.reopened() : stack
        let second = kind == .sqlite ? again.context : stack.newContext()
        try second.performAndWait {
            let docs = try second.fetch(again.request(entity: "Doc", sortedBy: "name"))
            #expect(docs[1].value(forKey: "color") as? Color == Color(red: 0, green: 0, blue: 0))
            #expect(docs[1].value(forKey: "motto") == nil)
            #expect(docs[0].value(forKey: "motto") as? String == "new")
        }
        if kind == .sqlite {
            // The transformer's bytes are what the file holds.
            let stored = try SQLiteInspector(stack.storeURL!).strings("SELECT CAST(ZMOTTO AS TEXT) FROM ZDOC WHERE ZNAME = 'empty'")
            #expect(stored == ["wen"])
        }
    }

    /// Xcode's XML for `Doc` with `motto` naming a transformer nobody registered, and
    /// `tags` an `[String]` stored by the built-in Codable type of that name.
    static let unregisteredModelXML = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Doc" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="motto" optional="YES" attributeType="Transformable" valueTransformerName="NobodyRegisteredThisTransformer" customClassName="NSString"/>
                <attribute name="tags" optional="YES" attributeType="Transformable" customClassName="[String]"/>
            </entity>
        </model>
        """

    static func loadUnregisteredModel(in folder: TemporaryFolder) throws -> ManagedObjectModel {
        let file = folder.url.appendingPathComponent("Docs.xcdatamodel/contents")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(unregisteredModelXML.utf8).write(to: file)
        return try ManagedObjectModel(contentsOf: file.deletingLastPathComponent())
    }

    /// Loads and opens the model, saves one document, then fails to save a motto; the
    /// store must be unchanged.
    static func checkUnregisteredTransformer(_ kind: StoreKind) throws {
        let folder = TemporaryFolder()
        let stack = try TestStack(model: loadUnregisteredModel(in: folder), kind: kind, folder: folder)
        try stack.context.performAndWait {
            _ = stack.insert("Doc", ["name": "plain", "tags": ["x"]])
            try stack.context.save()
            let failing = stack.insert("Doc", ["name": "with motto", "motto": "hello"])
            let bystander = stack.insert("Doc", ["name": "bystander"])
            let error = try #require(throws: CoreDataError.self) { try stack.context.save() }
            #expect(error.code == .transformerFailed)
            #expect(error.key == "motto")
            #expect(error.message.contains("NobodyRegisteredThisTransformer"))
            #expect(failing.objectID.isTemporaryID && bystander.objectID.isTemporaryID && stack.context.hasChanges)
            let fresh = stack.newContext()
            let stored = try fresh.performAndWait { try fresh.fetch(stack.request(entity: "Doc")).map { $0.value(forKey: "name") as? String } }
            #expect(stored == ["plain"])
            failing.setValue(nil, forKey: "motto")
            try stack.context.save()
            #expect(try stack.context.count(for: stack.request(entity: "Doc")) == 3)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aModelNamingAnUnregisteredTransformerOpensAndRefusesToSaveThroughIt(kind: StoreKind) throws {
        try Self.checkUnregisteredTransformer(kind)
    }

    @Test func aValueWhoseTransformerIsGoneFailsToLoad() throws {
        let name = Self.registeredName()
        let stack = try TestStack(model: Self.model(transformerName: name))
        let id = try stack.context.performAndWait {
            let doc = stack.insert("Doc", ["name": "d", "motto": "kept"])
            try stack.context.save()
            return doc.objectID
        }
        ValueTransformerRegistry.setValueTransformer(nil, forName: name)
        let reopened = try stack.reopened()
        try reopened.context.performAndWait {
            let error = try #require(throws: CoreDataError.self) { try reopened.context.existingObject(with: id) }
            #expect(error.code == .transformerFailed)
            #expect(error.key == "motto")
        }
    }
}

extension TestStack {
    /// A request for every object of `entity`, sorted by `key` when given.
    func request(entity: String, sortedBy key: String? = nil) -> FetchRequest<ManagedObject> {
        let request = FetchRequest<ManagedObject>(entityName: entity)
        if let key { request.sortDescriptors = [CDSortDescriptor(key: key)] }
        return request
    }
}
