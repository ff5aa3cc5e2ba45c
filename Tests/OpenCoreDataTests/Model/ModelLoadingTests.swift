import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Loading hand-written Xcode model files: every element and attribute the loader reads,
/// bundle version selection, and the errors bad files produce.
@Suite struct ModelLoadingTests {
    // MARK: - Fixtures

    static func model(_ body: String, identifier: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="\(identifier)">
        \(body)
        </model>
        """
    }

    static func currentVersion(_ name: String?) -> String {
        let body = name.map { "<dict>\n<key>_XCCurrentVersionName</key>\n<string>\($0)</string>\n</dict>" } ?? "<dict/>"
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            \(body)
            </plist>
            """
    }

    /// One entity per version, named after the version, so tests can tell which was loaded.
    static func version(_ entityName: String) -> String {
        model("<entity name=\"\(entityName)\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>")
    }

    private func load(_ xml: String) throws -> ManagedObjectModel {
        let folder = TemporaryFolder()
        return try ManagedObjectModel(contentsOf: folder.write(xml, to: "contents"))
    }

    private func loadingError(_ xml: String) throws -> CoreDataError {
        try #require(throws: CoreDataError.self) { try load(xml) }
    }

    // MARK: - Attributes

    @Test func attributeTypesAndTheirDefaults() throws {
        let model = try load(Self.model("""
            <entity name="Sample">
                <attribute name="i16" attributeType="Integer 16" defaultValueString="-7"/>
                <attribute name="i32" attributeType="Integer 32" defaultValueString="70000"/>
                <attribute name="i64" attributeType="Integer 64" defaultValueString="5000000000"/>
                <attribute name="dec" attributeType="Decimal" defaultValueString="12.50"/>
                <attribute name="dbl" attributeType="Double" defaultValueString="0.25"/>
                <attribute name="flt" attributeType="Float" defaultValueString="1.5"/>
                <attribute name="str" attributeType="String" defaultValueString="hello"/>
                <attribute name="yes" attributeType="Boolean" defaultValueString="YES"/>
                <attribute name="no" attributeType="Boolean" defaultValueString="NO"/>
                <attribute name="date" attributeType="Date" defaultDateTimeInterval="631123200"/>
                <attribute name="uuid" attributeType="UUID" defaultValueString="E621E1F8-C36C-495A-93FC-0C247A3E6E5F"/>
                <attribute name="uri" attributeType="URI" defaultValueString="https://example.org/a"/>
                <attribute name="blob" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
                <attribute name="thing" optional="YES" attributeType="Transformable" valueTransformerName="MyTransformer" customClassName="NSArray"/>
                <attribute name="oid" optional="YES" attributeType="ObjectID"/>
                <attribute name="undefined" optional="YES" transient="YES" attributeType="Undefined"/>
            </entity>
            """))
        let attributes = try #require(model.entitiesByName["Sample"]).attributesByName
        #expect(attributes.count == 16)
        #expect(attributes["i16"]?.attributeType == .integer16)
        #expect(attributes["i16"]?.defaultValue as? Int16 == -7)
        #expect(attributes["i32"]?.defaultValue as? Int32 == 70000)
        #expect(attributes["i64"]?.defaultValue as? Int64 == 5_000_000_000)
        #expect(attributes["dec"]?.defaultValue as? Decimal == Decimal(string: "12.5"))
        #expect(attributes["dbl"]?.defaultValue as? Double == 0.25)
        #expect(attributes["flt"]?.defaultValue as? Float == 1.5)
        #expect(attributes["str"]?.defaultValue as? String == "hello")
        #expect(attributes["yes"]?.defaultValue as? Bool == true)
        #expect(attributes["no"]?.defaultValue as? Bool == false)
        #expect(attributes["date"]?.defaultValue as? Date == Date(timeIntervalSinceReferenceDate: 631_123_200))
        #expect(attributes["uuid"]?.defaultValue as? UUID == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(attributes["uri"]?.defaultValue as? URL == URL(string: "https://example.org/a"))
        #expect(attributes["blob"]?.attributeType == .binaryData)
        #expect(attributes["blob"]?.allowsExternalBinaryDataStorage == true)
        #expect(attributes["thing"]?.valueTransformerName == "MyTransformer")
        #expect(attributes["thing"]?.attributeValueClassName == "NSArray")
        #expect(attributes["oid"]?.attributeType == .objectID)
        #expect(attributes["undefined"]?.attributeType == .undefined)
        #expect(attributes["undefined"]?.isTransient == true)
        #expect(attributes["i16"]?.isOptional == false)
        #expect(attributes["blob"]?.isOptional == true)
        #expect(attributes["blob"]?.defaultValue == nil)
    }

    @Test func rangesLengthsPatternsAndFlags() throws {
        let model = try load(Self.model("""
            <entity name="Sample">
                <attribute name="code" attributeType="String" minValueString="2" maxValueString="8" regularExpressionString="[A-Z]+" indexed="YES"/>
                <attribute name="data" optional="YES" attributeType="Binary" maxValueString="1024"/>
                <attribute name="count" attributeType="Integer 32" minValueString="-5" maxValueString="100"/>
                <attribute name="ratio" attributeType="Double" minValueString="0.5"/>
                <attribute name="when" attributeType="Date" minDateTimeInterval="10" maxDateTimeInterval="20"/>
                <attribute name="renamed" optional="YES" attributeType="String" elementID="oldName" versionHashModifier="v2"/>
            </entity>
            """))
        let attributes = try #require(model.entitiesByName["Sample"]).attributesByName
        let code = try #require(attributes["code"])
        #expect(code.minLength == 2 && code.maxLength == 8)
        #expect(code.minValue == nil && code.maxValue == nil)
        #expect(code.regularExpression == "[A-Z]+")
        #expect(code.isIndexed)
        #expect(attributes["data"]?.maxLength == 1024)
        #expect(attributes["count"]?.minValue == -5 && attributes["count"]?.maxValue == 100)
        #expect(attributes["count"]?.minLength == nil)
        #expect(attributes["ratio"]?.minValue == 0.5)
        #expect(attributes["when"]?.minValue == 10 && attributes["when"]?.maxValue == 20)
        #expect(attributes["renamed"]?.renamingIdentifier == "oldName")
        #expect(attributes["renamed"]?.versionHashModifier == "v2")
        #expect(attributes["count"]?.isIndexed == false)
    }

    // MARK: - Entities, relationships, constraints, indexes

    @Test func entitiesRelationshipsAndInheritance() throws {
        let model = try load(Self.model("""
            <entity name="Item" representedClassName="App.Item" elementID="OldItem" versionHashModifier="m" isAbstract="YES" codeGenerationType="class">
                <attribute name="title" attributeType="String"/>
                <relationship name="tags" optional="YES" toMany="YES" ordered="YES" minCount="1" maxCount="5" deletionRule="Cascade" destinationEntity="Tag" inverseName="items" inverseEntity="Tag"/>
                <relationship name="owner" maxCount="1" deletionRule="Deny" destinationEntity="Owner"/>
            </entity>
            <entity name="Book" parentEntity="Item">
                <attribute name="isbn" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Tag">
                <relationship name="items" optional="YES" toMany="YES" deletionRule="No Action" destinationEntity="Item" inverseName="tags" inverseEntity="Item"/>
            </entity>
            <entity name="Owner"/>
            """))
        #expect(model.entities.map(\.name) == ["Item", "Book", "Tag", "Owner"])
        let item = try #require(model.entitiesByName["Item"])
        let book = try #require(model.entitiesByName["Book"])
        #expect(item.managedObjectClassName == "App.Item")
        #expect(item.renamingIdentifier == "OldItem")
        #expect(item.versionHashModifier == "m")
        #expect(item.isAbstract)
        #expect(item.subentities.map(\.name) == ["Book"])
        #expect(book.superentity === item)
        #expect(book.properties.map(\.name) == ["isbn"])
        #expect(Set(book.propertiesByName.keys) == ["title", "tags", "owner", "isbn"])

        let tags = try #require(item.relationshipsByName["tags"])
        #expect(tags.isToMany && tags.isOrdered)
        #expect(tags.minCount == 1 && tags.maxCount == 5)
        #expect(tags.deleteRule == .cascade)
        #expect(tags.isOptional)
        #expect(tags.destinationEntity == nil)
        #expect(tags.destinationEntityName == "Tag")
        #expect(tags.inverseName == "items")
        let owner = try #require(item.relationshipsByName["owner"])
        #expect(!owner.isToMany && owner.maxCount == 1 && !owner.isOptional)
        #expect(owner.deleteRule == .deny)
        #expect(owner.inverseName == nil)
        #expect(model.entitiesByName["Tag"]?.relationshipsByName["items"]?.deleteRule == .noAction)
        #expect(model.entitiesByName["Tag"]?.relationshipsByName["items"]?.maxCount == 0)

        #expect(!model.isFrozen, "loading must leave freezing to the coordinator")
        try model.freeze()
        #expect(tags.destinationEntity === model.entitiesByName["Tag"])
        #expect(tags.inverseRelationship === model.entitiesByName["Tag"]?.relationshipsByName["items"])
        #expect(book.relationshipsByName["tags"] === tags)
    }

    @Test func constraintsIndexesUserInfoAndConfigurations() throws {
        let model = try load(Self.model("""
            <entity name="Account">
                <attribute name="id" attributeType="String"/>
                <attribute name="domain" attributeType="String">
                    <userInfo><entry key="note" value="host name"/></userInfo>
                </attribute>
                <attribute name="created" optional="YES" attributeType="Date"/>
                <uniquenessConstraints>
                    <uniquenessConstraint><constraint value="id"/></uniquenessConstraint>
                    <uniquenessConstraint><constraint value="id"/><constraint value="domain"/></uniquenessConstraint>
                </uniquenessConstraints>
                <fetchIndex name="byDomainAndDate">
                    <fetchIndexElement property="domain" type="Binary" order="ascending"/>
                    <fetchIndexElement property="created" type="Binary" order="descending"/>
                </fetchIndex>
                <fetchedProperty name="recent" optional="YES">
                    <fetchRequest name="fetchedPropertyFetchRequest" entity="Account" predicateString="TRUEPREDICATE"/>
                    <userInfo><entry key="ignored" value="yes"/></userInfo>
                </fetchedProperty>
                <userInfo><entry key="owner" value="accounts team"/></userInfo>
            </entity>
            <entity name="Log"><attribute name="text" optional="YES" attributeType="String"/></entity>
            <fetchRequest name="AllAccounts" entity="Account"/>
            <configuration name="Main"><memberEntity name="Account"/></configuration>
            <configuration name="Logs"><memberEntity name="Log"/></configuration>
            <elements><element name="Account" positionX="0" positionY="0" width="128" height="90"/></elements>
            """, identifier: "release-3"))
        let account = try #require(model.entitiesByName["Account"])
        #expect(account.properties.map(\.name) == ["id", "domain", "created"])
        #expect(account.uniquenessConstraints == [["id"], ["id", "domain"]])
        #expect(account.indexes == [FetchIndexDescription(name: "byDomainAndDate", elements: [
            .init(propertyName: "domain", isAscending: true), .init(propertyName: "created", isAscending: false),
        ])])
        #expect(account.userInfo == ["owner": "accounts team"])
        #expect(account.attributesByName["domain"]?.userInfo == ["note": "host name"])
        #expect(account.attributesByName["id"]?.userInfo == [:])
        #expect(model.configurations == ["Main": ["Account"], "Logs": ["Log"]])
        #expect(model.entities(forConfigurationName: "Logs").map(\.name) == ["Log"])
        #expect(model.versionIdentifiers == ["release-3"])
        #expect(model.versionName == nil)
        try model.freeze()
    }

    // MARK: - Files, folders and bundles

    @Test func loadsAFolderAndItsContentsFile() throws {
        let folder = TemporaryFolder()
        let contents = try folder.write(Self.version("Only"), to: "Single.xcdatamodel/contents")
        let fromFolder = try ManagedObjectModel(contentsOf: contents.deletingLastPathComponent())
        let fromFile = try ManagedObjectModel(contentsOf: contents)
        #expect(fromFolder.entities.map(\.name) == ["Only"])
        #expect(fromFile.entities.map(\.name) == ["Only"])
        #expect(fromFolder.versionName == nil)
    }

    @Test func aBundleLoadsTheVersionItsCurrentVersionFileNames() throws {
        let folder = TemporaryFolder()
        try folder.write(Self.version("First"), to: "M.xcdatamodeld/M.xcdatamodel/contents")
        try folder.write(Self.version("Second"), to: "M.xcdatamodeld/M 2.xcdatamodel/contents")
        try folder.write(Self.version("Tenth"), to: "M.xcdatamodeld/M 10.xcdatamodel/contents")
        try folder.write(Self.currentVersion("M 2.xcdatamodel"), to: "M.xcdatamodeld/.xccurrentversion")
        let bundle = folder.url.appendingPathComponent("M.xcdatamodeld")

        #expect(try ManagedObjectModel.versionNames(inBundleAt: bundle) == ["M", "M 2", "M 10"])
        let current = try ManagedObjectModel(contentsOf: bundle)
        #expect(current.entities.map(\.name) == ["Second"])
        #expect(current.versionName == "M 2")
        let tenth = try ManagedObjectModel(contentsOf: bundle, versionName: "M 10")
        #expect(tenth.entities.map(\.name) == ["Tenth"])
        #expect(tenth.versionName == "M 10")
        #expect(try ManagedObjectModel(contentsOf: bundle, versionName: "M.xcdatamodel").versionName == "M")
    }

    @Test func aBundleWithOneVersionAndNoCurrentVersionFileUsesIt() throws {
        let folder = TemporaryFolder()
        try folder.write(Self.version("Only"), to: "One.xcdatamodeld/One.xcdatamodel/contents")
        let model = try ManagedObjectModel(contentsOf: folder.url.appendingPathComponent("One.xcdatamodeld"))
        #expect(model.entities.map(\.name) == ["Only"])
        #expect(model.versionName == "One")
    }

    @Test func aBundleWithSeveralVersionsAndNoneNamedIsAmbiguous() throws {
        let folder = TemporaryFolder()
        try folder.write(Self.version("A"), to: "Two.xcdatamodeld/Alpha.xcdatamodel/contents")
        try folder.write(Self.version("B"), to: "Two.xcdatamodeld/Beta.xcdatamodel/contents")
        try folder.write(Self.currentVersion(nil), to: "Two.xcdatamodeld/.xccurrentversion")
        let bundle = folder.url.appendingPathComponent("Two.xcdatamodeld")
        let error = try #require(throws: CoreDataError.self) { try ManagedObjectModel(contentsOf: bundle) }
        #expect(error.code == .ambiguousModelVersion)
        #expect(error.message.contains("'Alpha'") && error.message.contains("'Beta'"))
        #expect(try ManagedObjectModel(contentsOf: bundle, versionName: "Beta").entities.map(\.name) == ["B"])
        try FileManager.default.removeItem(at: bundle.appendingPathComponent(".xccurrentversion"))
        #expect(throws: CoreDataError.self) { try ManagedObjectModel(contentsOf: bundle) }
    }

    @Test func anUnknownVersionNameListsTheVersions() throws {
        let folder = TemporaryFolder()
        try folder.write(Self.version("A"), to: "V.xcdatamodeld/V.xcdatamodel/contents")
        try folder.write(Self.version("B"), to: "V.xcdatamodeld/V 2.xcdatamodel/contents")
        let bundle = folder.url.appendingPathComponent("V.xcdatamodeld")
        let error = try #require(throws: CoreDataError.self) { try ManagedObjectModel(contentsOf: bundle, versionName: "V 3") }
        #expect(error.code == .invalidModel)
        #expect(error.message.contains("'V 3'") && error.message.contains("'V', 'V 2'"))
        let single = bundle.appendingPathComponent("V.xcdatamodel")
        #expect(throws: CoreDataError.self) { try ManagedObjectModel(contentsOf: single, versionName: "V") }
    }

    @Test func aCurrentVersionNamingAMissingVersionIsAnError() throws {
        let folder = TemporaryFolder()
        try folder.write(Self.version("A"), to: "W.xcdatamodeld/W.xcdatamodel/contents")
        try folder.write(Self.currentVersion("W 9.xcdatamodel"), to: "W.xcdatamodeld/.xccurrentversion")
        let error = try #require(throws: CoreDataError.self) {
            try ManagedObjectModel(contentsOf: folder.url.appendingPathComponent("W.xcdatamodeld"))
        }
        #expect(error.code == .invalidModel)
        #expect(error.message.contains("W 9"))
    }

    // MARK: - Errors

    @Test func aMissingFileIsAnInvalidModel() throws {
        let folder = TemporaryFolder()
        let missing = folder.url.appendingPathComponent("Nothing.xcdatamodeld")
        let error = try #require(throws: CoreDataError.self) { try ManagedObjectModel(contentsOf: missing) }
        #expect(error.code == .invalidModel)
        #expect(error.message.contains("Nothing.xcdatamodeld"))
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("Empty.xcdatamodel"), withIntermediateDirectories: true)
        let empty = try #require(throws: CoreDataError.self) {
            try ManagedObjectModel(contentsOf: folder.url.appendingPathComponent("Empty.xcdatamodel"))
        }
        #expect(empty.code == .invalidModel)
        #expect(empty.message.contains("Empty.xcdatamodel/contents"))
    }

    @Test func malformedXMLNamesTheFileAndLine() throws {
        let error = try loadingError("<?xml version=\"1.0\"?>\n<model>\n<entity name=\"A\">\n<attribute name=\"x\" attributeType=\"String\">\n</entity>\n</model>")
        #expect(error.code == .invalidModel)
        #expect(error.message.contains("contents"))
        #expect(error.message.contains("not well-formed XML"))
        #expect(error.message.contains("line 5"))
        let unclosed = try loadingError(Self.model("<entity name=\"A\">"))
        #expect(unclosed.code == .invalidModel && unclosed.message.contains("not well-formed"))
        let empty = try loadingError("")
        #expect(empty.code == .invalidModel)
    }

    @Test func aFileThatIsNotAModelIsAnError() throws {
        let plist = try loadingError(Self.currentVersion("X.xcdatamodel"))
        #expect(plist.code == .invalidModel)
        #expect(plist.message.contains("<plist>"))
        let text = try loadingError("just some text")
        #expect(text.code == .invalidModel)
    }

    @Test func anUnknownAttributeTypeNamesEntityAndAttribute() throws {
        let error = try loadingError(Self.model("""
            <entity name="Shape">
                <attribute name="corners" attributeType="Integer 128"/>
            </entity>
            """))
        #expect(error.code == .invalidModel)
        #expect(error.message.contains("Shape.corners"))
        #expect(error.message.contains("Integer 128"))
        #expect(error.message.contains("line 4"))
        #expect(error.key == "corners")
    }

    @Test func badValuesInAttributesAndRelationshipsAreErrors() throws {
        let badDefault = try loadingError(Self.model(
            "<entity name=\"E\"><attribute name=\"n\" attributeType=\"Integer 16\" defaultValueString=\"40000\"/></entity>"))
        #expect(badDefault.message.contains("E.n") && badDefault.message.contains("40000"))
        #expect(badDefault.key == "n")
        let badRule = try loadingError(Self.model(
            "<entity name=\"E\"><relationship name=\"r\" deletionRule=\"Explode\" destinationEntity=\"E\"/></entity>"))
        #expect(badRule.message.contains("E.r") && badRule.message.contains("Explode"))
        let badParent = try loadingError(Self.model("<entity name=\"E\" parentEntity=\"Ghost\"/>"))
        #expect(badParent.message.contains("'E'") && badParent.message.contains("'Ghost'"))
        let badLength = try loadingError(Self.model(
            "<entity name=\"E\"><attribute name=\"s\" attributeType=\"String\" maxValueString=\"long\"/></entity>"))
        #expect(badLength.message.contains("E.s") && badLength.message.contains("long"))
    }

    @Test func anInverseNamingAMissingRelationshipFailsWhenFrozen() throws {
        let model = try load(Self.model("""
            <entity name="Post">
                <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="User" inverseName="posts" inverseEntity="User"/>
            </entity>
            <entity name="User"><attribute name="name" optional="YES" attributeType="String"/></entity>
            """))
        let error = try #require(throws: CoreDataError.self) { try model.freeze() }
        #expect(error.code == .invalidModel)
        #expect(error.message.contains("Post.author") && error.message.contains("'posts'"))
    }

    @Test func aMissingDestinationEntityFailsWhenFrozen() throws {
        let model = try load(Self.model("""
            <entity name="Post">
                <relationship name="forum" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Forum"/>
            </entity>
            """))
        let error = try #require(throws: CoreDataError.self) { try model.freeze() }
        #expect(error.code == .invalidModel)
        #expect(error.message.contains("Post.forum") && error.message.contains("'Forum'"))
        #expect(error.key == "forum")
    }
}
