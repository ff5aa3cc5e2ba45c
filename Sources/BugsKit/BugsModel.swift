import Foundation
import OpenCoreData

/// The tracker's managed object model, `Bugs.xcdatamodeld`, shipped as a resource of this
/// module: `Project(name, url, host, bugs)` and `Bug(title, details, screenshot, created,
/// project)`.
public enum BugsModel {
    /// A new instance of the model, with `Project` and `Bug` registered as its classes.
    ///
    /// Each call loads a new model: a model is frozen by the first coordinator that uses
    /// it, and an app that shares a store with other models merges them
    /// (`ManagedObjectModel(byMerging:)`).
    ///
    /// - Throws: `CoreDataError.invalidModel` when the resource is missing or malformed.
    public static func makeModel() throws -> ManagedObjectModel {
        registerClasses()
        return try ManagedObjectModel(named: "Bugs", bundle: .module)
    }

    /// Binds the entities `Project` and `Bug` to their classes (idempotent).
    ///
    /// The model names the classes with their module, `BugsKit.Project` and
    /// `BugsKit.Bug` (Xcode's "Module" field), and they are registered under those names
    /// only: another model of the same process with its own `Project` or `Bug` entity
    /// keeps its own classes (or plain `ManagedObject`).
    public static func registerClasses() {
        ManagedObjectClasses.register(Project.self, forEntityName: String(reflecting: Project.self))
        ManagedObjectClasses.register(Bug.self, forEntityName: String(reflecting: Bug.self))
    }
}
