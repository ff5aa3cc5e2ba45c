import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Review: a fetch whose result type does not fit the request's generic type is an
/// `.invalidFetchRequest` for object IDs too, as it is for objects, counts and
/// dictionaries. Before, object IDs were force-cast and trapped.
@Suite struct ReviewFetchResultTypeTests {
    @Test func objectIDsIntoARequestOfObjectsIsAnError() throws {
        let stack = try TestStack(model: Models.notes())
        try stack.context.performAndWait {
            _ = stack.insert("Note", ["text": "one"])
            try stack.context.save()
            let request = FetchRequest<ManagedObject>(entityName: "Note")
            request.resultType = .managedObjectIDResultType
            let error = #expect(throws: CoreDataError.self) { try stack.context.fetch(request) }
            #expect(error?.code == .invalidFetchRequest)
        }
    }
}
