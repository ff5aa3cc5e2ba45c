import Foundation
import OpenCoreData

extension NestedList {
    /// The nested-list model (`Lists.xcdatamodeld`, shipped with this module), with `Item`
    /// registered as its entity's class. A new instance per call: a coordinator freezes the
    /// model it uses, and the demo merges it with other models first.
    ///
    /// The model names the class with its module, `ListsKit.Item` (Xcode's "Module"
    /// field), and the class is registered under that name only: another model of the
    /// same process with its own `Item` entity keeps its own class (or `ManagedObject`).
    ///
    /// - Throws: `CoreDataError.invalidModel` when the resource is missing or unreadable.
    public static func model() throws -> ManagedObjectModel {
        ManagedObjectClasses.register(Item.self, forEntityName: String(reflecting: Item.self))
        return try ManagedObjectModel(named: "Lists", bundle: .module)
    }
}
