import EditingSession
import Foundation
import OpenCoreData
import OpenCoreDataTestSupport
import Synchronization
import Testing
@testable import ListsKit

@Suite struct NestedListSamplesTests {
    static let samples: [(title: String, items: [String])] = [("a", ["a1", "a2"]), ("b", [])]

    @Test(arguments: StoreKind.allCases)
    func samplesFillAnEmptyRootListOnceAsOneStep(_ kind: StoreKind) throws {
        let fixture = try ListsFixture(kind: kind)
        #expect(try fixture.lists.addSamples(Self.samples))
        #expect(try fixture.outline() == "a[a1 a2] b")
        #expect(try fixture.lists.addSamples(Self.samples) == false)
        #expect(try fixture.outline() == "a[a1 a2] b")
        #expect(fixture.session.undoActionName == "Add Sample Lists")
        #expect(try fixture.session.undo() == "Add Sample Lists")
        #expect(try fixture.outline() == "")
        #expect(try fixture.problems() == [])

        #expect(throws: ListsError.emptyTitle) { try fixture.lists.addSamples([("c", ["  "])]) }
        #expect(try fixture.outline() == "")
    }

    /// Two first launches at once (two coordinators of one file, as two processes): the
    /// samples are added once.
    @Test func twoFirstLaunchesAtOnceAddTheSamplesOnce() throws {
        for _ in 0 ..< 4 {
            let first = try ListsFixture(kind: .sqlite)
            let second = try ListsFixture(stack: first.stack.reopened(model: NestedList.model()))
            let lists = [first.lists, second.lists]
            let added = Mutex([Bool]())
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                #expect(throws: Never.self) {
                    let result = try lists[index].addSamples(Self.samples)
                    added.withLock { $0.append(result) }
                }
            }
            #expect(added.withLock { $0.filter { $0 }.count } == 1)
            #expect(try first.storeOutline() == "a[a1 a2] b")
            #expect(try first.problems() == [])
        }
    }
}
