import Foundation
import OpenCoreData
import OpenCoreDataTestSupport
import Testing

@Suite struct ManagedObjectEntityTests {
    @Test func aClassFindsItsEntityInAModelInUse() throws {
        let model = TypedSubclassTests.model()
        #expect(TodoTask.entity(in: model) == nil)            // not frozen yet
        _ = try TestStack(model: model, kind: .inMemory)
        #expect(TodoTask.entity(in: model)?.name == "Item")
        #expect(Thing.entity(in: model) == nil)                // bound to no entity of it
        #expect(ManagedObject.entity(in: model) == nil)
    }
}
