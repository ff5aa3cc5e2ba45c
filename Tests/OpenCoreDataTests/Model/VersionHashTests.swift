import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Entity version hashes change exactly when something about stored data changes.
@Suite struct VersionHashTests {
    // MARK: - Fixtures

    /// `Item(title: String?, tags: [Tag]) <->> Tag(name: String, items)`, rebuilt on each call.
    private func itemModel(edit: (EntityDescription, EntityDescription) -> Void = { _, _ in }) -> ManagedObjectModel {
        let tag = EntityDescription(name: "Tag", properties: [AttributeDescription(name: "name", type: .string, isOptional: false)])
        let item = EntityDescription(name: "Item", properties: [AttributeDescription(name: "title", type: .string)])
        let tags = RelationshipDescription(name: "tags", destination: tag, toMany: true)
        let items = RelationshipDescription(name: "items", destination: item, toMany: true)
        tags.setInverse(items)
        item.properties.append(tags)
        tag.properties.append(items)
        edit(item, tag)
        return ManagedObjectModel(entities: [item, tag])
    }

    private func itemHash(_ edit: (EntityDescription) -> Void) -> Data {
        itemModel { item, _ in edit(item) }.entities[0].versionHash
    }

    private var baseline: Data { itemHash { _ in } }

    private func hex(_ data: Data) -> String { data.map { String(format: "%02x", $0) }.joined() }

    // MARK: - Stable

    @Test func theEncodingMatchesItsDocumentation() {
        // Expected values computed independently (Python hashlib) from the documented encoding.
        let item = itemModel().entitiesByName["Item"]!
        #expect(hex(item.attributesByName["title"]!.versionHash) == "5d0491c070045fa090f9f6e70e6ab0526651956b34a9c58fabeb5996ebbd6390")
        #expect(hex(item.versionHash) == "0b4d519aa7c72c41059c3b4b5d296a1696f56f0a8dd83b7e466f78d4564ca924")
    }

    @Test func identicalEntitiesBuiltTwiceHashTheSame() {
        let first = itemModel(), second = itemModel()
        #expect(first.entitiesByName["Item"] !== second.entitiesByName["Item"])
        #expect(first.entityVersionHashesByName == second.entityVersionHashesByName)
        #expect(Set(first.entityVersionHashesByName.keys) == ["Item", "Tag"])
        #expect(first.entityVersionHashesByName["Item"]?.count == 32)
        #expect(first.entityVersionHashesByName["Item"] != first.entityVersionHashesByName["Tag"])
    }

    @Test func declarationOrderAndFreezingDoNotMatter() throws {
        #expect(itemHash { $0.properties.reverse() } == baseline)
        let model = itemModel()
        let before = model.entityVersionHashesByName
        try model.freeze()
        #expect(model.entityVersionHashesByName == before)
    }

    @Test func aLoadedModelHashesLikeTheSameModelBuiltInCode() throws {
        let folder = TemporaryFolder()
        let file = try folder.write(ModelLoadingTests.model("""
            <entity name="Item">
                <attribute name="title" optional="YES" attributeType="String"/>
                <relationship name="tags" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Tag" inverseName="items" inverseEntity="Tag"/>
            </entity>
            <entity name="Tag">
                <attribute name="name" attributeType="String"/>
                <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="tags" inverseEntity="Item"/>
            </entity>
            """), to: "contents")
        let loaded = try ManagedObjectModel(contentsOf: file)
        #expect(loaded.entityVersionHashesByName == itemModel().entityVersionHashesByName)
        try loaded.freeze()
        #expect(loaded.entityVersionHashesByName == itemModel().entityVersionHashesByName)
    }

    // MARK: - Changes that leave the hash alone

    @Test func metadataDeleteRulesAndValidationDoNotChangeTheHash() {
        let title: (EntityDescription) -> AttributeDescription = { $0.attributesByName["title"]! }
        let tags: (EntityDescription) -> RelationshipDescription = { $0.relationshipsByName["tags"]! }
        #expect(itemHash { title($0).userInfo = ["note": "x"] } == baseline)
        #expect(itemHash { $0.userInfo = ["note": "x"] } == baseline)
        #expect(itemHash { tags($0).deleteRule = .cascade } == baseline)
        #expect(itemHash { title($0).maxLength = 10; title($0).regularExpression = "a+" } == baseline)
        #expect(itemHash { title($0).defaultValue = "untitled" } == baseline)
        #expect(itemHash { $0.managedObjectClassName = "App.Item"; $0.renamingIdentifier = "OldItem" } == baseline)
        #expect(itemHash { $0.indexes = [FetchIndexDescription(name: "byTitle", elements: [.init(propertyName: "title")])] } == baseline)
        #expect(itemHash { $0.properties.append(AttributeDescription(name: "cache", type: .binaryData, isTransient: true)) } == baseline)
    }

    // MARK: - Changes that change it

    @Test func schemaChangesChangeTheHash() {
        let title: (EntityDescription) -> AttributeDescription = { $0.attributesByName["title"]! }
        let tags: (EntityDescription) -> RelationshipDescription = { $0.relationshipsByName["tags"]! }
        let changed: [Data] = [
            itemHash { title($0).attributeType = .uri },
            itemHash { title($0).isOptional = false },
            itemHash { title($0).name = "heading" },
            itemHash { title($0).versionHashModifier = "2" },
            itemHash { $0.name = "Thing" },
            itemHash { $0.isAbstract = true },
            itemHash { $0.versionHashModifier = "2" },
            itemHash { $0.properties.append(AttributeDescription(name: "rank", type: .integer32)) },
            itemHash { tags($0).maxCount = 1 },
            itemHash { tags($0).isOrdered = true },
            itemHash { tags($0).minCount = 1 },
            itemHash { tags($0).inverseRelationship = nil; tags($0).inverseName = nil },
            itemHash { tags($0).destinationEntity = $0; tags($0).destinationEntityName = "Item" },
        ]
        for (offset, hash) in changed.enumerated() {
            #expect(hash != baseline, "change #\(offset) should change the hash")
        }
        #expect(Set(changed).count == changed.count)
    }

    @Test func aChangeToTheSuperentityChangesItsSubentities() {
        func bookHash(parentAttributeType: AttributeType) -> Data {
            let item = EntityDescription(name: "Item", properties: [AttributeDescription(name: "title", type: parentAttributeType)])
            let book = EntityDescription(name: "Book", properties: [AttributeDescription(name: "isbn", type: .string)])
            item.subentities = [book]
            return book.versionHash
        }
        #expect(bookHash(parentAttributeType: .string) == bookHash(parentAttributeType: .string))
        #expect(bookHash(parentAttributeType: .string) != bookHash(parentAttributeType: .uri))
        let orphan = EntityDescription(name: "Book", properties: [AttributeDescription(name: "isbn", type: .string)])
        #expect(orphan.versionHash != bookHash(parentAttributeType: .string))
    }

    // MARK: - Corpus

    @Test(.requiresCorpus) func corpusVersionsHashAlikeExactlyWhenTheirSchemaMatches() throws {
        let bundle = modelCorpusURL.appendingPathComponent("corestore-evolution/Advanced.EvolutionDemo.xcdatamodeld")
        let v1Bundle = modelCorpusURL.appendingPathComponent("corestore-evolution/Advanced.EvolutionDemo.V1.xcdatamodeld")
        func hashes(_ url: URL, _ version: String) throws -> [String: Data] {
            try ManagedObjectModel(contentsOf: url, versionName: version).entityVersionHashesByName
        }
        // Byte-identical versions.
        #expect(try hashes(bundle, "Advanced.EvolutionDemo") == hashes(bundle, "Advanced.EvolutionDemo.V2"))
        // Same schema; only the class name, code generation and a default value differ.
        #expect(try hashes(bundle, "Advanced.EvolutionDemo") == hashes(v1Bundle, "Advanced.EvolutionDemo.V1"))
        // Attributes added and renamed.
        #expect(try hashes(v1Bundle, "Advanced.EvolutionDemo.V1") != hashes(v1Bundle, "Advanced.EvolutionDemo.V2"))
    }
}
