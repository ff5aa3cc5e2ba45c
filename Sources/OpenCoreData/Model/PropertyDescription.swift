import Foundation

/// What attributes and relationships share: a name, optionality and transience.
public class PropertyDescription: @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: edited only while its model is not frozen; read-only after.

    /// The property's name, unique in its entity.
    public var name: String {
        willSet { checkMutable("name") }
    }
    /// Whether the value may be nil (or, for to-many relationships, empty) when saved.
    public var isOptional: Bool {
        willSet { checkMutable("isOptional") }
    }
    /// A transient property is tracked by the context but never stored.
    public var isTransient: Bool {
        willSet { checkMutable("isTransient") }
    }
    /// Free-form metadata from the model.
    public var userInfo: [String: String] = [:] {
        willSet { checkMutable("userInfo") }
    }
    /// The name this property had in an earlier model version (for migrations).
    public var renamingIdentifier: String? {
        willSet { checkMutable("renamingIdentifier") }
    }
    /// Changes the version hash without changing the schema.
    public var versionHashModifier: String? {
        willSet { checkMutable("versionHashModifier") }
    }
    /// The entity that declares the property.
    public internal(set) var entity: EntityDescription? {
        get { entityReference?.entity }
        set { entityReference = newValue?.weakReference }
    }
    private weak var entityReference: WeakEntityReference?

    init(name: String, isOptional: Bool, isTransient: Bool) {
        self.name = name
        self.isOptional = isOptional
        self.isTransient = isTransient
    }

    public var description: String { "\(type(of: self))(\(entity?.name ?? "?").\(name))" }
}

/// How deleting an object affects the objects at the other end of a relationship.
public enum DeleteRule: String, Sendable, CaseIterable {
    /// Leave the related objects alone, even if they keep pointing at the deleted one.
    case noAction
    /// Remove the deleted object from the related objects' inverse relationship.
    case nullify
    /// Delete the related objects too.
    case cascade
    /// Refuse the delete (the save fails) while related objects exist.
    case deny
}
