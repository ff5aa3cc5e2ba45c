import Foundation
import Testing
@testable import OpenCoreData
import OpenCoreDataTestSupport

/// Opening and closing stores, successfully or not, leaves no file descriptor open.
/// Counts only descriptors on files of the test's own folder, so tests running in
/// parallel do not disturb the count.
@Suite struct StoreDescriptorTests {
    private func descriptors(in folder: URL) -> Int {
        let prefix = folder.resolvingSymlinksInPath().path + "/"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.filter { entry in
            var buffer = [CChar](repeating: 0, count: 4096)
            let length = readlink("/proc/self/fd/" + entry, &buffer, buffer.count - 1)
            guard length > 0 else { return false }
            return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self).hasPrefix(prefix)
        }.count
    }

    @Test func aThousandOpenFetchCloseCyclesLeaveNoDescriptor() throws {
        let stack = try TestStack(model: Models.nestedList())
        try stack.context.performAndWait {
            _ = stack.insert("Item", ["title": "one"])
            try stack.context.save()
        }
        stack.coordinator.persistentStores.forEach(stack.coordinator.remove)
        let url = try #require(stack.storeURL)
        #expect(descriptors(in: stack.folder.url) == 0)
        for cycle in 0..<1_000 {
            let coordinator = try PersistentStoreCoordinator.opening(Models.nestedList(), at: url)
            let context = ManagedObjectContext(concurrencyType: .privateQueue)
            context.persistentStoreCoordinator = coordinator
            let found = try context.performAndWait { try context.fetch(FetchRequest<ManagedObject>(entityName: "Item")).count }
            #expect(found == 1)
            #expect(descriptors(in: stack.folder.url) > 0)
            // Half the cycles remove the store, half just let the coordinator go.
            if cycle.isMultiple(of: 2) { coordinator.persistentStores.forEach(coordinator.remove) }
        }
        #expect(descriptors(in: stack.folder.url) == 0)
    }

    @Test func refusedOpensLeaveNoDescriptor() throws {
        let folder = TemporaryFolder()
        try SQLiteInspector(folder.file("foreign.sqlite")).execute("CREATE TABLE people (name TEXT)")
        let stack = try TestStack(model: Models.nestedList(), folder: folder)
        stack.coordinator.persistentStores.forEach(stack.coordinator.remove)
        let changed = Models.nestedList()
        changed.entities[0].properties.append(AttributeDescription(name: "note", type: .string))
        for _ in 0..<200 {
            #expect(throws: CoreDataError.self) { try PersistentStoreCoordinator.opening(changed, at: folder.file()) }
            #expect(throws: CoreDataError.self) { try PersistentStoreCoordinator.opening(Models.nestedList(), at: folder.file("foreign.sqlite")) }
            #expect(throws: CoreDataError.self) {
                try PersistentStoreCoordinator.opening(Models.nestedList(), at: folder.file(), options: [PersistentStoreOption.sqlitePragmas: ["nope": "1"]])
            }
        }
        #expect(descriptors(in: folder.url) == 0)
    }
}
