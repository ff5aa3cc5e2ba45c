import Foundation
import Synchronization

/// The identity of a managed object: its entity, its store and its primary key.
///
/// An object inserted into a context has a temporary ID until it is saved (or
/// `obtainPermanentIDs(for:)` is called); from then on its ID is permanent and can be
/// passed between contexts and threads (`ManagedObjectID` is `Sendable`) or archived
/// through `uriRepresentation()`.
public struct ManagedObjectID: Hashable, Sendable, CustomStringConvertible {
    package enum Reference: Hashable, Sendable {
        case permanent(Int64)
        case temporary(UInt64)
    }

    /// The entity of the object (always the concrete entity, never an abstract parent).
    public let entity: EntityDescription
    /// The identifier of the store that holds the object; `nil` while temporary.
    public let storeIdentifier: String?
    package let reference: Reference

    package init(entity: EntityDescription, storeIdentifier: String, primaryKey: Int64) {
        self.entity = entity
        self.storeIdentifier = storeIdentifier
        self.reference = .permanent(primaryKey)
    }

    private static let temporaryCounter = Atomic<UInt64>(0)

    package static func makeTemporary(for entity: EntityDescription) -> ManagedObjectID {
        let number = temporaryCounter.add(1, ordering: .relaxed).newValue
        return ManagedObjectID(entity: entity, temporary: number)
    }

    private init(entity: EntityDescription, temporary number: UInt64) {
        self.entity = entity
        self.storeIdentifier = nil
        self.reference = .temporary(number)
    }

    /// Whether the ID is temporary: the object has not been saved yet.
    public var isTemporaryID: Bool {
        if case .temporary = reference { return true }
        return false
    }

    /// Orders temporary IDs by creation (permanent IDs by key).
    var creationOrder: UInt64 {
        switch reference {
        case .temporary(let number): return number
        case .permanent(let key): return UInt64(bitPattern: key)
        }
    }

    /// The row's primary key (`Z_PK`), or `nil` for a temporary ID.
    public var primaryKey: Int64? {
        if case .permanent(let key) = reference { return key }
        return nil
    }

    /// A URI that names this object, in Core Data's form:
    /// `x-coredata://<store UUID>/<Entity>/p<primary key>` (temporary: `x-coredata:///<Entity>/t<n>`).
    public func uriRepresentation() -> URL {
        switch reference {
        case .permanent(let key):
            return URL(string: "x-coredata://\(storeIdentifier ?? "")/\(entity.name)/p\(key)")!
        case .temporary(let number):
            return URL(string: "x-coredata:///\(entity.name)/t\(number)")!
        }
    }

    public static func == (lhs: ManagedObjectID, rhs: ManagedObjectID) -> Bool {
        lhs.reference == rhs.reference && lhs.entity === rhs.entity && lhs.storeIdentifier == rhs.storeIdentifier
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(entity))
        hasher.combine(reference)
    }

    public var description: String { "<\(uriRepresentation().absoluteString)>" }
}
