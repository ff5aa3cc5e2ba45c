import DataAccess
import Foundation
import OpenCoreData
import OpenCoreDataTestSupport
import Testing

/// Skopelos' `NSManagedObject+Skopelos` tests, Swift-named, on both stores.
@Suite("ManagedObject CRUD helpers")
struct ManagedObjectCRUDTests {
    private static func addUsers(_ dal: DALService, _ names: [(String, String)]) {
        dal.writeSync { context in
            for (first, last) in names {
                let user = User.create(in: context)
                user.firstname = first
                user.lastname = last
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func createAndCount(_ kind: StoreKind) throws {
        let fixture = DALFixture(kind)
        var counts: [Int] = []
        fixture.dal.read { context in
            counts.append(try User.count(in: context))
        }.writeSync { context in
            User.create(in: context)
        }.read { context in
            counts.append(try User.count(in: context))
        }
        #expect(counts == [0, 1])
        #expect(fixture.dal.errors.isEmpty)
    }

    @Test(arguments: StoreKind.allCases)
    func removeInALaterWrite(_ kind: StoreKind) throws {
        let fixture = DALFixture(kind)
        var counts: [Int] = []
        fixture.dal.writeSync { context in
            User.create(in: context)
            User.create(in: context)
            counts.append(try User.all(in: context).count)
        }.writeSync { context in
            try #require(try User.first(in: context)).remove(in: context)
            counts.append(try User.count(in: context))
        }.read { context in
            counts.append(try User.count(in: context))
        }
        #expect(counts == [2, 1, 1])
        #expect(fixture.dal.errors.isEmpty)
    }

    @Test(arguments: StoreKind.allCases)
    func removeInTheSameWrite(_ kind: StoreKind) throws {
        let fixture = DALFixture(kind)
        var counts: [Int] = []
        fixture.dal.writeSync { context in
            let user = User.create(in: context)
            User.create(in: context)
            counts.append(try User.count(in: context))
            user.remove(in: context)
            counts.append(try User.count(in: context))
        }.read { context in
            counts.append(try User.count(in: context))
        }
        #expect(counts == [2, 1, 1])
    }

    @Test(arguments: StoreKind.allCases)
    func removeAll(_ kind: StoreKind) throws {
        let fixture = DALFixture(kind)
        Self.addUsers(fixture.dal, [("A", "X"), ("B", "Y")])
        var counts: [Int] = []
        fixture.dal.writeSync { context in
            User.create(in: context)
            counts.append(try User.count(in: context))
            try User.removeAll(in: context)
            counts.append(try User.count(in: context))
        }.read { context in
            counts.append(try User.count(in: context))
        }
        #expect(counts == [3, 0, 0])
    }

    @Test(arguments: StoreKind.allCases)
    func countAndAllWithPredicates(_ kind: StoreKind) throws {
        let fixture = DALFixture(kind)
        Self.addUsers(fixture.dal, [("John", "Doe"), ("Jane", "Doe"), ("Mark", "Smith")])
        var results: [String] = []
        fixture.dal.read { context in
            let johns = try CDPredicate(format: "%K == %@", "firstname", "John")
            results.append("count \(try User.count(in: context, predicate: johns))")
            let does = try CDPredicate(format: "lastname == %@", "Doe")
            results.append("asc " + (try User.all(in: context, predicate: does, sortedBy: "firstname")).compactMap(\.firstname).joined(separator: ","))
            results.append("desc " + (try User.all(in: context, predicate: does, sortedBy: "firstname:NO")).compactMap(\.firstname).joined(separator: ","))
            results.append("terms " + (try User.all(in: context, sortedBy: "lastname:NO,firstname:YES")).compactMap(\.firstname).joined(separator: ","))
            results.append("descriptors " + (try User.all(in: context, sortedBy: [CDSortDescriptor(key: "firstname", ascending: false)])).compactMap(\.firstname).joined(separator: ","))
            results.append("foundation " + (try User.all(in: context, sortedBy: [SortDescriptor(\User.firstname)])).compactMap(\.firstname).joined(separator: ","))
            results.append("where " + (try User.all(in: context, where: "lastname", equals: "Doe", sortedBy: "firstname:NO")).compactMap(\.firstname).joined(separator: ","))
        }
        #expect(results == ["count 1", "asc Jane,John", "desc John,Jane", "terms Mark,Jane,John", "descriptors Mark,John,Jane",
                            "foundation Jane,John,Mark", "where John,Jane"])
        #expect(fixture.dal.errors.isEmpty)
    }

    @Test(arguments: StoreKind.allCases)
    func first(_ kind: StoreKind) throws {
        let fixture = DALFixture(kind)
        var found: [String?] = []
        fixture.dal.read { context in
            found.append(try User.first(in: context)?.firstname ?? "none")
        }
        Self.addUsers(fixture.dal, [("John", "Doe"), ("Jane", "Doe"), ("Mark", "Smith")])
        fixture.dal.read { context in
            found.append(try User.first(in: context, predicate: CDPredicate(format: "lastname == 'Doe'"), sortedBy: "firstname")?.firstname)
            found.append(try User.first(in: context, sortedBy: "firstname:NO")?.firstname)
            found.append(try User.first(in: context, where: "lastname", equals: "Smith")?.firstname)
            found.append(try User.first(in: context, where: "lastname", equals: "Nobody")?.firstname ?? "none")
        }
        #expect(found == ["none", "Jane", "Mark", "Mark", "none"])
    }

    /// Bad sort terms and unknown keys are typed errors, handed to `handleError(_:)`.
    @Test(arguments: StoreKind.allCases)
    func invalidSortTermsAreTypedErrors(_ kind: StoreKind) throws {
        let fixture = DALFixture(kind)
        Self.addUsers(fixture.dal, [("A", "X")])
        for terms in ["firstname:MAYBE", "first name", "", "firstname,,lastname", "a:YES:NO", "nosuchkey"] {
            var thrown: (any Error)?
            fixture.dal.read { context in
                do { _ = try User.all(in: context, sortedBy: terms) } catch { thrown = error; throw error }
            }
            let error = try #require(thrown as? CoreDataError, "terms \"\(terms)\"")
            #expect(error.code == .invalidFetchRequest, "terms \"\(terms)\": \(error)")
        }
        #expect(fixture.dal.errorCodes == Array(repeating: .invalidFetchRequest, count: 6))
        var unknownKey: (any Error)?
        fixture.dal.read { context in
            do { _ = try User.first(in: context, where: "nosuchkey", equals: "A") } catch { unknownKey = error }
        }
        #expect((unknownKey as? CoreDataError)?.code == .invalidFetchRequest)
    }

    /// `object.in(context)` works for unsaved and saved objects alike (Skopelos'
    /// `SK_inContext` returned nil for saved ones: it only handled temporary IDs).
    @Test(arguments: StoreKind.allCases)
    func inContextForSavedAndUnsavedObjects(_ kind: StoreKind) throws {
        let fixture = DALFixture(kind)
        var sameContext = false
        var savedID: ManagedObjectID?
        fixture.dal.writeSync { context in
            let user = User.create(in: context)
            user.firstname = "Unsaved"
            sameContext = try user.in(context) === user
            // An unsaved object seen by another context that reads through the same
            // parent chain: it gets a permanent ID first.
            let child = ManagedObjectContext(concurrencyType: .privateQueue)
            child.parent = context
            let moved = try user.in(child)
            #expect(!moved.objectID.isTemporaryID)
            #expect(moved.objectID == user.objectID)
            #expect(child.performAndWait { moved.firstname } == "Unsaved")
            savedID = user.objectID
        }
        #expect(sameContext)
        var names: [String?] = []
        fixture.dal.read { main in
            let saved = try #require(try User.first(in: main))
            #expect(saved.objectID == savedID)
            names.append(saved.firstname)
            // A saved object into a write's context.
            fixture.dal.writeSync { scratch in
                let there = try saved.in(scratch)
                names.append(there.firstname)
                there.firstname = "Renamed"
            }
            names.append(saved.firstname)
        }
        #expect(names == ["Unsaved", "Unsaved", "Renamed"])
        #expect(fixture.dal.errors.isEmpty)
    }
}
