/// The one check every setter of a model class makes: a model is shared, read-only, by
/// every context and thread once a `PersistentStoreCoordinator` uses it (its classes are
/// `@unchecked Sendable` on that promise), so a later change would be a data race and
/// would desynchronise the frozen layout. It traps, naming what was changed.
extension ManagedObjectModel {
    /// Traps if `model` is frozen; `what` names the changed property, e.g. `EntityDescription 'Item'.name`.
    static func checkMutable(_ model: ManagedObjectModel?, _ what: @autoclosure () -> String) {
        guard let model, model.isFrozen else { return }
        preconditionFailure("\(what()): a model cannot be changed once a PersistentStoreCoordinator uses it. Build a new model instead.")
    }

    /// Traps if this model is frozen (see `checkMutable(_:_:)`).
    func checkMutable(_ property: String) {
        Self.checkMutable(self, "ManagedObjectModel.\(property)")
    }
}

extension EntityDescription {
    /// Traps if the entity's model is frozen (see `ManagedObjectModel.checkMutable(_:_:)`).
    func checkMutable(_ property: String) {
        ManagedObjectModel.checkMutable(model, "EntityDescription '\(name)'.\(property)")
    }
}

extension PropertyDescription {
    /// Traps if the model of the property's entity is frozen (see `ManagedObjectModel.checkMutable(_:_:)`).
    func checkMutable(_ property: String) {
        ManagedObjectModel.checkMutable(entity?.model, "\(type(of: self)) '\(entity?.name ?? "?").\(name)'.\(property)")
    }
}
