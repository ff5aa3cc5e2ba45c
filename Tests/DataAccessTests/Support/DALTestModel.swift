import DataAccess
import Foundation
import OpenCoreData
import OpenCoreDataTestSupport

/// Skopelos' example model: `User` (firstname, lastname, optional) and `Pet` (a
/// mandatory `name`, so a write can be made to fail validation).
final class User: ManagedObject {
    @Managed var firstname: String?
    @Managed var lastname: String?
}

final class Pet: ManagedObject {
    @Managed var name: String?
}

enum DALTestModel {
    private static let registered: Void = {
        ManagedObjectClasses.register(User.self)
        ManagedObjectClasses.register(Pet.self)
    }()

    static func make() -> ManagedObjectModel {
        _ = registered
        let user = EntityDescription(name: "User", managedObjectClassName: "User", properties: [
            AttributeDescription(name: "firstname", type: .string),
            AttributeDescription(name: "lastname", type: .string),
        ])
        let pet = EntityDescription(name: "Pet", managedObjectClassName: "Pet", properties: [
            AttributeDescription(name: "name", type: .string, isOptional: false),
        ])
        return ManagedObjectModel(entities: [user, pet])
    }
}

/// A `DALService` subclass that records every error handed to `handleError(_:)`.
final class RecordingDAL: DALService, @unchecked Sendable {
    // @unchecked Sendable: `recorded` is under `lock`.
    private let lock = NSLock()
    private var recorded: [any Error] = []

    override func handleError(_ error: any Error) {
        lock.withLock { recorded.append(error) }
    }

    var errors: [any Error] { lock.withLock { recorded } }
    var errorCodes: [CoreDataError.Code?] { errors.map { ($0 as? CoreDataError)?.code } }
}

/// A DAL on either store, with its folder kept alive for the test.
struct DALFixture {
    let folder = TemporaryFolder()
    let dal: RecordingDAL
    let kind: StoreKind

    init(_ kind: StoreKind, concurrentWrites: Bool = true) {
        self.kind = kind
        switch kind {
        case .sqlite:
            dal = RecordingDAL(sqliteStack: DALTestModel.make(), storeURL: folder.file(), allowsConcurrentWritings: concurrentWrites, appStateSaving: .off)
        case .inMemory:
            dal = RecordingDAL(inMemoryStack: DALTestModel.make(), allowsConcurrentWritings: concurrentWrites)
        }
    }

    var storeURL: URL { folder.file() }

    /// The users on disk, read by a coordinator of its own (SQLite only).
    func usersOnDisk() throws -> [String?] { try Self.usersOnDisk(at: storeURL) }

    /// The first names of the users in the SQLite store at `url`.
    static func usersOnDisk(at url: URL) throws -> [String?] {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: DALTestModel.make())
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.persistentStoreCoordinator = coordinator
        return try context.performAndWait {
            try context.fetch(FetchRequest<ManagedObject>(entityName: "User")).map { $0.value(forKey: "firstname") as? String }
        }
    }
}

/// Where a block runs, by queue identity and thread.
enum Where {
    private static let mainKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static var isMainQueue: Bool { DispatchQueue.getSpecific(key: mainKey) == true }
    static var thread: pthread_t { pthread_self() }
}

/// A value several threads append to, in order.
final class Trace<T: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `items` is under `lock`.
    private let lock = NSLock()
    private var items: [T] = []
    func append(_ item: T) { lock.withLock { items.append(item) } }
    var all: [T] { lock.withLock { items } }
}
