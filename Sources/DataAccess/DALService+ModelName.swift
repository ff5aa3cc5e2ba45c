import Foundation
import OpenCoreData

extension DALService {
    // MARK: - Stacks by model name, and the default store location

    /// A SQLite stack for the source model `modelName` (`NAME.xcdatamodeld` or
    /// `NAME.xcdatamodel`) in `bundle` — on Linux the app target's `Bundle.module`, with the
    /// model shipped by `.copy` — its store at `storeURL`, by default
    /// `defaultDirectoryURL()/NAME.sqlite`, where a `PersistentContainer` named after the
    /// model keeps it.
    ///
    /// - Throws: the model lookup's `CoreDataError` (no such model, or only a compiled
    ///   `.momd`, which this library does not read).
    public convenience init(
        sqliteStack modelName: String,
        bundle: Bundle = .main,
        storeURL: URL? = nil,
        allowsConcurrentWritings: Bool = true,
        appStateSaving: AppStateSaving = .signalsAndExit,
        shouldAddStoreAsynchronously: Bool = false,
        completion: (@Sendable ((any Error)?) -> Void)? = nil
    ) throws {
        let model = try ManagedObjectModel(named: modelName, bundle: bundle)
        self.init(model: model, storeType: .sqlite, storeURL: storeURL ?? Self.defaultStoreURL(named: modelName),
                  allowsConcurrentWritings: allowsConcurrentWritings, appStateSaving: appStateSaving,
                  shouldAddStoreAsynchronously: shouldAddStoreAsynchronously, completion: completion)
    }

    /// `defaultDirectoryURL()/NAME.sqlite`.
    public class func defaultStoreURL(named name: String) -> URL {
        defaultDirectoryURL().appendingPathComponent("\(name).sqlite", isDirectory: false)
    }
}
