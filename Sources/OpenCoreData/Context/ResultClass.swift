import Foundation

/// Turns fetched `ManagedObject`s into the request's result type `T` with one check per
/// fetch instead of a generic cast per object.
///
/// Creating it checks that every entity the fetch can return is bound to `T` or a
/// subclass (`ManagedObjectClasses`). Each object's class is then compared with the
/// last class found to be a `T` — one pointer comparison — and only an object of
/// another class (a sub-entity's subclass, or an object created with a class other than
/// its entity's) goes through a dynamic cast.
struct ResultClass<T> {
    /// The class last found to be a `T`: objects of exactly this class need no cast.
    private var verified: ObjectIdentifier

    /// - Throws: `.invalidFetchRequest` when `T` is not `ManagedObject` or a subclass, or
    ///   when an entity the fetch can return is bound to a class that is not a `T`.
    init(_ query: StoreFetch, context: ManagedObjectContext) throws {
        guard let resultType = T.self as? ManagedObject.Type else {
            throw CoreDataError(.invalidFetchRequest, "Managed object results need FetchRequest<ManagedObject> or a ManagedObject subclass, not \(T.self).")
        }
        verified = ObjectIdentifier(resultType)
        guard resultType != ManagedObject.self else { return }
        let layout = context.parentStore.managedObjectModel.layout
        for number in query.entityNumbers {
            guard let entity = layout.entitiesByNumber[number], !entity.isAbstract else { continue }
            guard context.objectClass(for: entity) is T.Type else {
                throw CoreDataError(.invalidFetchRequest, "A fetch of \(query.entity.name) returns \(entity.name) objects, which are not \(T.self). Register the subclass with ManagedObjectClasses.register(_:) or fetch ManagedObject.")
            }
        }
    }

    /// `object` as a `T`, or nil when it is not one.
    @inline(__always)
    mutating func cast(_ object: ManagedObject) -> T? {
        let type = ObjectIdentifier(Swift.type(of: object))
        if type != verified {
            guard object is T else { return nil }
            verified = type
        }
        // `init` proved `T` a class (ManagedObject or a subclass) and `object` is a `T`.
        return unsafeBitCast(object, to: T.self)
    }

    /// `objects` as `T`s: each object's class is checked, then the array is reinterpreted
    /// (an array of class references has one layout whatever the class), not copied.
    ///
    /// - Throws: `.invalidFetchRequest` naming the first object that is not a `T`.
    mutating func cast(_ objects: [ManagedObject], entityName: String) throws -> [T] {
        if T.self != ManagedObject.self {
            for object in objects where cast(object) == nil {
                throw CoreDataError(.invalidFetchRequest, "A fetch of \(entityName) returned a \(type(of: object)), which is not a \(T.self). Register the subclass with ManagedObjectClasses.register(_:) or fetch ManagedObject.")
            }
        }
        return unsafeBitCast(objects, to: [T].self)
    }
}
