import Foundation
import Testing
@testable import OpenCoreData

/// The shared corpus of real Xcode models: `<repo>/../shared/corpus/models` (see its SOURCES.md).
let modelCorpusURL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Model
    .deletingLastPathComponent()  // OpenCoreDataTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // repository root
    .appendingPathComponent("../shared/corpus/models", isDirectory: true)
    .standardizedFileURL

let modelCorpusAvailable = FileManager.default.fileExists(atPath: modelCorpusURL.path)

extension Trait where Self == ConditionTrait {
    /// Skips a test when the corpus folder is absent (e.g. a clone without `../shared`).
    static var requiresCorpus: Self {
        .enabled(if: modelCorpusAvailable, "The model corpus is not at ../shared/corpus/models beside the repository")
    }
}

/// Counts taken from the XML with an independent script: every entity, attribute and
/// relationship element of one version (sub-entities count only what they declare).
struct CorpusVersion: Sendable, CustomTestStringConvertible {
    var bundle: String
    var version: String
    var entities: Int
    var attributes: Int
    var relationships: Int

    var testDescription: String { "\(bundle) / \(version)" }
}

@Suite struct CorpusModelTests {
    static let evolution = "corestore-evolution/Advanced.EvolutionDemo"
    static let wikipedia = "wikipedia/Wikipedia.xcdatamodeld"
    static let mastodon = "mastodon/CoreData.xcdatamodeld"

    static let versions: [CorpusVersion] = [
        .init(bundle: "\(evolution).V1.xcdatamodeld", version: "Advanced.EvolutionDemo.V1", entities: 1, attributes: 2, relationships: 0),
        .init(bundle: "\(evolution).V1.xcdatamodeld", version: "Advanced.EvolutionDemo.V2", entities: 1, attributes: 5, relationships: 0),
        .init(bundle: "\(evolution).V2.xcdatamodeld", version: "Advanced.EvolutionDemo.V2", entities: 1, attributes: 5, relationships: 0),
        .init(bundle: "\(evolution).xcdatamodeld", version: "Advanced.EvolutionDemo", entities: 1, attributes: 2, relationships: 0),
        .init(bundle: "\(evolution).xcdatamodeld", version: "Advanced.EvolutionDemo.V2", entities: 1, attributes: 2, relationships: 0),
        .init(bundle: "corestore-tests/Model.xcdatamodeld", version: "Model", entities: 2, attributes: 16, relationships: 4),
        .init(bundle: "employee-directory/EmployeeDirectory.xcdatamodeld", version: "EmployeeDirectory", entities: 5, attributes: 8, relationships: 4),
        .init(bundle: mastodon, version: "CoreData", entities: 19, attributes: 158, relationships: 68),
        .init(bundle: mastodon, version: "CoreData 2", entities: 20, attributes: 161, relationships: 68),
        .init(bundle: mastodon, version: "CoreData 3", entities: 18, attributes: 147, relationships: 65),
        .init(bundle: "skopelos-example/DataModel.xcdatamodeld", version: "DataModel", entities: 2, attributes: 3, relationships: 2),
        .init(bundle: wikipedia, version: "Wikipedia", entities: 6, attributes: 73, relationships: 8),
        .init(bundle: wikipedia, version: "Wikipedia 2", entities: 10, attributes: 92, relationships: 14),
        .init(bundle: wikipedia, version: "Wikipedia 3", entities: 10, attributes: 96, relationships: 14),
        .init(bundle: wikipedia, version: "Wikipedia 4", entities: 10, attributes: 95, relationships: 14),
        .init(bundle: wikipedia, version: "Wikipedia 5", entities: 10, attributes: 97, relationships: 14),
        .init(bundle: wikipedia, version: "Wikipedia 6", entities: 10, attributes: 98, relationships: 14),
        .init(bundle: wikipedia, version: "Wikipedia 7", entities: 6, attributes: 82, relationships: 8),
        .init(bundle: wikipedia, version: "Wikipedia 8", entities: 6, attributes: 83, relationships: 8),
    ]

    private static func url(_ bundle: String) -> URL {
        modelCorpusURL.appendingPathComponent(bundle, isDirectory: true)
    }

    private func load(_ bundle: String, _ version: String) throws -> ManagedObjectModel {
        let model = try ManagedObjectModel(contentsOf: Self.url(bundle), versionName: version)
        try model.freeze()
        return model
    }

    // MARK: - Every version loads and freezes

    @Test(.requiresCorpus, arguments: versions)
    func versionLoadsWithExactCountsAndFreezes(_ expected: CorpusVersion) throws {
        let model = try ManagedObjectModel(contentsOf: Self.url(expected.bundle), versionName: expected.version)
        #expect(model.versionName == expected.version)
        #expect(model.entities.count == expected.entities)
        let properties = model.entities.flatMap(\.properties)
        #expect(properties.filter { $0 is AttributeDescription }.count == expected.attributes)
        #expect(properties.filter { $0 is RelationshipDescription }.count == expected.relationships)
        try model.freeze()
        for case let relationship as RelationshipDescription in properties {
            #expect(relationship.destinationEntity != nil, "\(relationship) has no destination after freeze")
        }
    }

    @Test(.requiresCorpus)
    func theTableCoversEveryVersionOfEveryBundle() throws {
        var found: Set<String> = []
        let enumerator = try #require(FileManager.default.enumerator(atPath: modelCorpusURL.path))
        for case let path as String in enumerator where path.hasSuffix(".xcdatamodeld") {
            for version in try ManagedObjectModel.versionNames(inBundleAt: Self.url(path)) {
                found.insert("\(path) / \(version)")
            }
        }
        #expect(found == Set(Self.versions.map(\.testDescription)))
    }

    @Test(.requiresCorpus)
    func bundlesLoadTheirCurrentVersion() throws {
        let current = [
            Self.mastodon: "CoreData 3", Self.wikipedia: "Wikipedia 7",
            "employee-directory/EmployeeDirectory.xcdatamodeld": "EmployeeDirectory",
            "skopelos-example/DataModel.xcdatamodeld": "DataModel",  // one version, no .xccurrentversion
            "corestore-tests/Model.xcdatamodeld": "Model",
            "\(Self.evolution).V1.xcdatamodeld": "Advanced.EvolutionDemo.V1",
            "\(Self.evolution).V2.xcdatamodeld": "Advanced.EvolutionDemo.V2",  // one version, no .xccurrentversion
        ]
        for (bundle, version) in current {
            #expect(try ManagedObjectModel(contentsOf: Self.url(bundle)).versionName == version, "\(bundle)")
        }
    }

    @Test(.requiresCorpus)
    func anEmptyCurrentVersionDictionaryWithTwoVersionsIsAmbiguous() throws {
        let bundle = Self.url("\(Self.evolution).xcdatamodeld")
        let error = try #require(throws: CoreDataError.self) { try ManagedObjectModel(contentsOf: bundle) }
        #expect(error.code == .ambiguousModelVersion)
        #expect(error.message.contains("'Advanced.EvolutionDemo'") && error.message.contains("'Advanced.EvolutionDemo.V2'"))
        let picked = try ManagedObjectModel(contentsOf: bundle, versionName: "Advanced.EvolutionDemo.V2")
        #expect(picked.entitiesByName["Creature"]?.attributesByName["numberOfFlagella"]?.defaultValue as? Int32 == 0)
    }

    // MARK: - Inverses

    private func expectInverse(_ model: ManagedObjectModel, _ from: (String, String), _ to: (String, String)) throws {
        let source = try #require(model.entitiesByName[from.0]?.relationshipsByName[from.1])
        let target = try #require(model.entitiesByName[to.0]?.relationshipsByName[to.1])
        #expect(source.inverseRelationship === target && target.inverseRelationship === source)
        #expect(source.destinationEntity === model.entitiesByName[to.0])
        #expect(target.destinationEntity === model.entitiesByName[from.0])
    }

    @Test(.requiresCorpus)
    func skopelosUsesOneNameOnBothSides() throws {
        let model = try load("skopelos-example/DataModel.xcdatamodeld", "DataModel")
        try expectInverse(model, ("Pet", "relationship"), ("User", "relationship"))
        #expect(model.entitiesByName["User"]?.relationshipsByName["relationship"]?.isToMany == true)
        #expect(model.entitiesByName["Pet"]?.relationshipsByName["relationship"]?.isToMany == false)
    }

    @Test(.requiresCorpus)
    func coreStoreTestsHasConfigurationsAndAnOrderedSelfRelationship() throws {
        let model = try load("corestore-tests/Model.xcdatamodeld", "Model")
        #expect(model.configurations == ["Config1": ["TestEntity1AAA"], "Config2": ["TestEntity2"]])
        #expect(model.entities(forConfigurationName: "Config2").map(\.name) == ["TestEntity2"])
        try expectInverse(model, ("TestEntity2", "testToManyOrdered"), ("TestEntity2", "testToOne"))
        try expectInverse(model, ("TestEntity1AAA", "testToManyUnordered"), ("TestEntity1AAA", "testToOne"))
        #expect(model.entitiesByName["TestEntity2"]?.relationshipsByName["testToManyOrdered"]?.isOrdered == true)
        #expect(model.entitiesByName["TestEntity1AAA"]?.relationshipsByName["testToManyUnordered"]?.isOrdered == false)
        #expect(model.entitiesByName["TestEntity1AAA"]?.managedObjectClassName == ".TestEntity1")
        let types = model.entitiesByName["TestEntity2"]?.attributesByName.mapValues(\.attributeType)
        #expect(types?["testDecimal"] == .decimal && types?["testData"] == .binaryData && types?["testEntityID"] == .integer64)
    }

    @Test(.requiresCorpus)
    func employeeDirectoryInheritsFromAnAbstractPerson() throws {
        let model = try load("employee-directory/EmployeeDirectory.xcdatamodeld", "EmployeeDirectory")
        let person = try #require(model.entitiesByName["Person"])
        let employee = try #require(model.entitiesByName["Employee"])
        let contractor = try #require(model.entitiesByName["Contractor"])
        #expect(person.isAbstract && !employee.isAbstract)
        #expect(Set(person.subentities.map(\.name)) == ["Employee", "Contractor"])
        #expect(employee.superentity === person && contractor.superentity === person)
        #expect(contractor.properties.map(\.name) == ["agency"])
        #expect(Set(contractor.attributesByName.keys) == ["birthDate", "firstName", "fullName", "lastName", "agency"])
        #expect(employee.attributesByName["firstName"] === person.attributesByName["firstName"])
        #expect(employee.attributesByName["fullName"]?.isTransient == true)
        #expect(employee.attributesByName["salary"]?.minValue == 0)
        try expectInverse(model, ("Employee", "projects"), ("Project", "members"))
        try expectInverse(model, ("Department", "employees"), ("Employee", "department"))
        #expect(employee.relationshipsByName["projects"]?.isManyToMany == true)
        #expect(employee.relationshipsByName["projects"]?.deleteRule == .noAction)
    }

    @Test(.requiresCorpus)
    func mastodonHasConstraintsManyToManyAndARename() throws {
        for version in ["CoreData", "CoreData 2", "CoreData 3"] {
            let model = try load(Self.mastodon, version)
            #expect(model.entitiesByName["DomainBlock"]?.uniquenessConstraints == [["userID", "domain", "blockedDomain"]])
            let notification = version == "CoreData 3" ? "Notification" : "MastodonNotification"
            #expect(model.entitiesByName[notification]?.uniquenessConstraints == [["id"]], "\(version)")
            try expectInverse(model, ("MastodonUser", "favourite"), ("Status", "favouritedBy"))
            try expectInverse(model, ("MastodonUser", "reblogged"), ("Status", "rebloggedBy"))
        }
        let v3 = try load(Self.mastodon, "CoreData 3")
        let status = try #require(v3.entitiesByName["Status"])
        #expect(status.attributesByName["visibilityRaw"]?.renamingIdentifier == "visibility")
        #expect(v3.entities.flatMap(\.properties).filter(\.isTransient).count == 3)
        let index = try #require(v3.entitiesByName["HomeTimelineIndex"]?.relationshipsByName["status"])
        #expect(index.inverseRelationship == nil && index.destinationEntity === status)
        let created = v3.entitiesByName["Emoji"]?.attributesByName["createAt"]
        #expect(created?.defaultValue as? Date == Date(timeIntervalSinceReferenceDate: 631_123_200))
        #expect(v3.entitiesByName["DomainBlock"]?.attributesByName["createAt"]?.defaultValue == nil)
    }

    @Test(.requiresCorpus)
    func wikipediaHasFetchIndexesTransformersAndAnOrderedManyToMany() throws {
        let indexCounts = ["Wikipedia": 22, "Wikipedia 2": 24, "Wikipedia 3": 23, "Wikipedia 4": 23, "Wikipedia 5": 23,
                           "Wikipedia 6": 23, "Wikipedia 7": 22, "Wikipedia 8": 22]
        for (version, count) in indexCounts {
            let model = try load(Self.wikipedia, version)
            #expect(model.entities.flatMap(\.indexes).count == count, "\(version)")
            let transformers = model.entities.flatMap { $0.attributesByName.values }
                .filter { $0.valueTransformerName == "WMFSecureUnarchiveFromDataTransformer" }
            let number = Int(version.split(separator: " ").last ?? "") ?? 1
            #expect(transformers.count == (number >= 4 ? 6 : 0), "\(version)")
            try expectInverse(model, ("ReadingList", "previewArticles"), ("WMFArticle", "previewReadingLists"))
            try expectInverse(model, ("ReadingList", "articles"), ("WMFArticle", "readingLists"))
            #expect(model.entitiesByName["ReadingList"]?.relationshipsByName["previewArticles"]?.isOrdered == true)
            #expect(model.entitiesByName["WMFArticle"]?.relationshipsByName["previewReadingLists"]?.isOrdered == false)
        }
        let v2 = try load(Self.wikipedia, "Wikipedia 2")
        let cached = try #require(v2.entitiesByName["WMFArticle"]?.indexes.first { $0.name == "isCachedIndex" })
        #expect(cached.elements == [.init(propertyName: "isCached", isAscending: false),
                                    .init(propertyName: "savedDate"), .init(propertyName: "key")])
        let v4 = try load(Self.wikipedia, "Wikipedia 4")
        let pageViews = v4.entities.compactMap { $0.attributesByName["pageViews"] }.first
        #expect(pageViews?.attributeType == .transformable)
        #expect(pageViews?.attributeValueClassName == "NSDictionary")
    }
}
