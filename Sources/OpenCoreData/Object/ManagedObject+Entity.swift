extension ManagedObject {
    /// The entity of `model` whose objects are instances of this class, or nil when none
    /// is bound to it or `model` is not in use by a coordinator yet.
    ///
    /// Core Data's `entity()` finds the model by itself; here a class may serve entities
    /// of several models, so the caller names the one it means.
    public class func entity(in model: ManagedObjectModel) -> EntityDescription? {
        guard model.isFrozen else { return nil }
        return StoreFetch.entity(boundTo: self, in: model)
    }
}
