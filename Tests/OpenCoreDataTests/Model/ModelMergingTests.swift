import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// `ManagedObjectModel(byMerging:)`: several modules' models on one store, each source
/// model left as it was.
@Suite struct ModelMergingTests {
    // MARK: - Fixtures

    /// A Project/Bug model loaded from Xcode XML (relationships named, not yet wired), with
    /// a `Note.item` relationship whose destination, `Item`, is in another model.
    static func trackerModel(in folder: TemporaryFolder) throws -> ManagedObjectModel {
        let url = try folder.write("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="tracker-1">
                <entity name="Project" representedClassName="Project">
                    <attribute name="name" attributeType="String" defaultValueString=""/>
                    <relationship name="bugs" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Bug" inverseName="project" inverseEntity="Bug"/>
                </entity>
                <entity name="Bug" representedClassName="Bug">
                    <attribute name="title" attributeType="String" defaultValueString=""/>
                    <relationship name="project" maxCount="1" deletionRule="Nullify" destinationEntity="Project" inverseName="bugs" inverseEntity="Project"/>
                </entity>
                <entity name="Note">
                    <attribute name="text" optional="YES" attributeType="String"/>
                    <relationship name="item" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Item"/>
                </entity>
                <configuration name="Shared"><memberEntity name="Project"/><memberEntity name="Bug"/></configuration>
            </model>
            """, to: "Tracker.xcdatamodel/contents")
        return try ManagedObjectModel(contentsOf: url)
    }

    static func listsModel() -> ManagedObjectModel {
        let model = Models.nestedList()
        model.configurations = ["Shared": ["Item"]]
        model.versionIdentifiers = ["lists-1"]
        return model
    }

    // MARK: - Using the merged model

    @Test(arguments: StoreKind.allCases)
    func mergedModelOpensAStoreAndRelationshipsWork(kind: StoreKind) throws {
        let folder = TemporaryFolder()
        let merged = try ManagedObjectModel(byMerging: [Self.listsModel(), Self.trackerModel(in: folder)])
        let stack = try TestStack(model: merged, kind: kind, folder: folder)
        try stack.context.performAndWait {
            let root = stack.insert("Item", ["title": "Root"])
            let child = stack.insert("Item", ["title": "Milk", "order": Int64(0), "parent": root])
            let project = stack.insert("Project", ["name": "Site"])
            let bug = stack.insert("Bug", ["title": "Crash", "project": project])
            _ = stack.insert("Note", ["text": "see Milk", "item": child])
            #expect(root.value(forKey: "children") as? Set<ManagedObject> == [child])
            #expect(project.value(forKey: "bugs") as? Set<ManagedObject> == [bug])
            try stack.context.save()
        }
        let reader = kind == .sqlite
            ? try stack.reopened(model: ManagedObjectModel(byMerging: [Self.listsModel(), Self.trackerModel(in: folder)]))
            : stack
        try reader.context.performAndWait {
            let note = try #require(try reader.fetch("Note").first)
            let item = try #require(note.value(forKey: "item") as? ManagedObject)
            #expect(item.value(forKeyPath: "parent.title") as? String == "Root")
            let project = try #require(try reader.fetch("Project").first)
            #expect((project.value(forKey: "bugs") as? Set<ManagedObject>)?.map { $0.value(forKey: "title") as? String } == ["Crash"])
            // Cascade across the merged model's copies of the tracker's entities.
            reader.context.delete(try #require(try reader.fetch("Project").first))
            try reader.context.save()
            #expect(try reader.fetch("Bug").isEmpty)
        }
    }

    @Test func entitiesAreCopiesWithTheSameSchema() throws {
        let folder = TemporaryFolder()
        let lists = Self.listsModel()
        let people = Models.people()
        let tracker = try Self.trackerModel(in: folder)
        let merged = try ManagedObjectModel(byMerging: [lists, people, tracker])

        #expect(merged.entities.map(\.name) == ["Item", "Person", "Employee", "Contractor", "Department", "Project", "Bug", "Note"])
        for entity in merged.entities {
            #expect(entity.model === merged)
            let source = try #require((lists.entitiesByName[entity.name] ?? people.entitiesByName[entity.name] ?? tracker.entitiesByName[entity.name]))
            #expect(source !== entity)
            #expect(source.model !== merged)
            #expect(entity.versionHash == source.versionHash, "\(entity.name)")
        }
        let byName = merged.entitiesByName
        // Relationships point at the copies, inverses included, even when the source only named them.
        let parent = try #require(byName["Item"]?.relationshipsByName["parent"])
        #expect(parent.destinationEntity === byName["Item"])
        #expect(parent.inverseRelationship === byName["Item"]?.relationshipsByName["children"])
        let bugProject = try #require(byName["Bug"]?.relationshipsByName["project"])
        #expect(bugProject.destinationEntity === byName["Project"])
        #expect(bugProject.inverseRelationship === byName["Project"]?.relationshipsByName["bugs"])
        #expect(byName["Note"]?.relationshipsByName["item"]?.destinationEntity === byName["Item"])
        // Inheritance: sub-entities re-linked to the copies; an inherited inverse resolves.
        #expect(byName["Person"]?.subentities.map(\.name) == ["Employee", "Contractor"])
        #expect(byName["Employee"]?.superentity === byName["Person"])
        #expect(byName["Department"]?.relationshipsByName["members"]?.inverseRelationship === byName["Person"]?.relationshipsByName["department"])
        // Configurations merge by name; version identifiers are united.
        #expect(merged.configurations == ["Shared": ["Item", "Project", "Bug"]])
        #expect(merged.versionIdentifiers == ["lists-1", "tracker-1"])
        #expect(merged.entities(forConfigurationName: "Shared").map(\.name) == ["Item", "Project", "Bug"])
    }

    // MARK: - Refusals

    @Test func duplicateEntityNamesAreRefused() throws {
        let folder = TemporaryFolder()
        let lists = Self.listsModel()
        let error = try #require(caughtError { _ = try ManagedObjectModel(byMerging: [lists, Self.trackerModel(in: folder), Models.nestedList()]) })
        #expect(error.code == .invalidModel)
        #expect(error.message.contains("'Item'") && error.message.contains("#1") && error.message.contains("#3"))
        #expect(code { _ = try ManagedObjectModel(byMerging: [lists, lists]) } == .invalidModel)
        // Nothing of the refused merge touched the source.
        #expect(lists.entities.allSatisfy { $0.model === lists })
        #expect(try ManagedObjectModel(byMerging: []).entities.isEmpty)
    }

    // MARK: - The sources stay usable

    @Test(arguments: StoreKind.allCases)
    func sourceModelsStayUsableOnTheirOwn(kind: StoreKind) throws {
        let lists = Self.listsModel()
        let people = Models.people()
        // One source is already frozen by its own coordinator before the merge, one after.
        let listsStack = try TestStack(model: lists, kind: kind)
        let merged = try ManagedObjectModel(byMerging: [lists, people])
        let mergedStack = try TestStack(model: merged, kind: kind)
        let peopleStack = try TestStack(model: people, kind: kind)

        #expect(lists.entities.allSatisfy { $0.model === lists })
        #expect(people.entitiesByName["Employee"]?.superentity === people.entitiesByName["Person"])
        for stack in [listsStack, mergedStack] {
            try stack.context.performAndWait {
                _ = stack.insert("Item", ["title": "one"])
                try stack.context.save()
                #expect(try stack.fetch("Item").count == 1)
            }
        }
        for stack in [peopleStack, mergedStack] {
            try stack.context.performAndWait {
                let department = stack.insert("Department", ["name": "R&D"])
                _ = stack.insert("Employee", ["name": "Ada", "department": department])
                try stack.context.save()
                #expect(try stack.fetch("Person").count == 1)
            }
        }
    }
}
