import Foundation
import OpenCoreData
import OpenCoreDataTestSupport

/// Values handed over from completion handlers on other threads, read under a lock.
final class Collected<Value>: @unchecked Sendable {
    // @unchecked Sendable: `items` is only touched under `lock`.
    private let lock = NSLock()
    private var items: [Value] = []

    func append(_ value: Value) { lock.withLock { items.append(value) } }
    var values: [Value] { lock.withLock { items } }

    /// Waits until `count` values arrived or `seconds` passed; the values.
    func waitFor(_ count: Int, seconds: Double = 5) -> [Value] {
        let deadline = Date().addingTimeInterval(seconds)
        while values.count < count && Date() < deadline { Thread.sleep(forTimeInterval: 0.002) }
        return values
    }
}

extension PersistentContainer {
    /// Loads the stores synchronously (no description may be asynchronous) and returns
    /// each description's error, in order.
    func loadCollectingErrors() -> [(any Error)?] {
        let results = Collected<(any Error)?>()
        loadPersistentStores { _, error in results.append(error) }
        return results.values
    }

    /// A container on `model` whose one store (of `kind`) is in `folder`.
    static func testContainer(_ name: String = "Notes", model: ManagedObjectModel, kind: StoreKind, folder: TemporaryFolder) -> PersistentContainer {
        let container = PersistentContainer(name: name, managedObjectModel: model)
        let description = container.persistentStoreDescriptions[0]
        description.type = kind.type
        description.url = folder.file("\(name).sqlite")
        return container
    }
}

/// The thread running the caller, comparable across threads.
func currentThreadID() -> ObjectIdentifier { ObjectIdentifier(Thread.current) }
