import DataAccess
import Foundation
import OpenCoreData
import OpenCoreDataTestSupport
import Testing

/// Runs the example of `docs/data-access.md`, which must stay the same code.
@Suite("DataAccess doc")
struct DataAccessDocTests {
    @Test func dataAccessExample() throws {
        let model = DALTestModel.make()
        let temporary = TemporaryFolder()
        let folder = temporary.url
        // example: data-access
        final class SkopelosClient: DALService, @unchecked Sendable {
            override func handleError(_ error: any Error) { print("DataAccess: \(error)") }
        }
        let dal = SkopelosClient(sqliteStack: model, storeURL: folder.appendingPathComponent("Users.sqlite"))
        var names: [String] = []
        dal.writeSync { context in
            let ada = User.create(in: context)
            ada.firstname = "Ada"
            ada.lastname = "Lovelace"
            let alan = User.create(in: context)
            alan.firstname = "Alan"
            alan.lastname = "Turing"
        }.writeSync { context in
            try User.first(in: context, where: "firstname", equals: "Alan")?.remove(in: context)
        }.read { context in
            names = try User.all(in: context, sortedBy: "lastname,firstname:NO").compactMap(\.firstname)
        }
        print(names)                                    // ["Ada"]: the chain has finished
        // end example
        #expect(names == ["Ada"])
        #expect(try DALFixture.usersOnDisk(at: folder.appendingPathComponent("Users.sqlite")) == ["Ada"])
        #expect(DocExample.mismatch(doc: "data-access.md", name: "data-access") == nil)
    }
}

