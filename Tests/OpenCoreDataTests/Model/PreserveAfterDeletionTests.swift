import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Xcode's "Preserve After Deletion" (`preserveAfterDeletion="YES"` on an `<attribute>`)
/// becomes `AttributeDescription.preservesValueInHistoryOnDeletion`, Core Data's name,
/// and decides what a delete's tombstone keeps.
@Suite struct PreserveAfterDeletionTests {
    static let xml = ModelLoadingTests.model("""
        <entity name="Message" representedClassName="Message" syncable="YES">
            <attribute name="permanentUUID" optional="YES" attributeType="UUID" usesScalarValueType="NO" preserveAfterDeletion="YES"/>
            <attribute name="subject" optional="YES" attributeType="String" preserveAfterDeletion="NO"/>
            <attribute name="body" optional="YES" attributeType="String"/>
        </entity>
        """)

    @Test func theParserReadsTheFlag() throws {
        let folder = TemporaryFolder()
        let model = try ManagedObjectModel(contentsOf: folder.write(Self.xml, to: "contents"))
        let attributes = try #require(model.entitiesByName["Message"]).attributesByName
        #expect(attributes["permanentUUID"]?.preservesValueInHistoryOnDeletion == true)
        #expect(attributes["subject"]?.preservesValueInHistoryOnDeletion == false)
        #expect(attributes["body"]?.preservesValueInHistoryOnDeletion == false)
    }

    @Test func aParsedModelsTombstoneKeepsOnlyThePreservedValue() throws {
        let folder = TemporaryFolder()
        let model = try ManagedObjectModel(contentsOf: folder.write(Self.xml, to: "contents"))
        let stack = try HistoryStack(folder: folder, model: model)
        let context = stack.context
        let uuid = UUID()
        try context.performAndWait {
            let message = EntityDescription.insertNewObject(forEntityName: "Message", into: context)
            message.setValue(uuid, forKey: "permanentUUID")
            message.setValue("Hello", forKey: "subject")
            message.setValue("…", forKey: "body")
            try context.save()
            context.delete(message)
            try context.save()
        }
        let deletion = try #require(try stack.history().last?.changes?.first)
        #expect(deletion.changeType == .delete)
        #expect(deletion.tombstone?.count == 1)
        #expect(deletion.tombstone?["permanentUUID"] as? UUID == uuid)
    }

    @Test func settableInSwiftUntilTheModelIsInUse() throws {
        let attribute = AttributeDescription(name: "id", type: .uuid)
        #expect(!attribute.preservesValueInHistoryOnDeletion)
        attribute.preservesValueInHistoryOnDeletion = true
        #expect(attribute.preservesValueInHistoryOnDeletion)
    }
}
