import Foundation
import OpenCoreData

/// How an `OCDEngine` moves `Flat` values in and out of managed objects: through
/// key-value coding (`OCDKVCFlat`) or through a typed subclass's `@Managed` properties
/// (`OCDTypedFlat`, what the README teaches).
protocol OCDFlatAccess {
    associatedtype Object: ManagedObject

    /// Registers classes; called once per process before the model is used.
    static func setUp()
    /// Inserts one object per row (not saved).
    static func insert(_ rows: [FlatValues], into context: ManagedObjectContext)
    /// Reads all ten attributes.
    static func values(of object: Object) -> FlatValues
    static func a0(of object: Object) -> Int64
    static func a4(of object: Object) -> String
    static func change(_ object: Object, a2: Double, a4: String)
    /// A fetch request for `Flat` objects.
    static func request(asFaults: Bool) -> FetchRequest<Object>
}
