import Foundation

/// How a context's `save()` resolves conflicts (Core Data's `NSMergePolicy`): rows changed
/// in the store since the context read them, and uniqueness constraints a save violates.
///
/// Set one on `ManagedObjectContext.mergePolicy`. The default, `.error`, resolves nothing:
/// the save throws `.mergeConflict` (or `.constraintViolation`) with the conflicts and
/// writes nothing. The other four change the context's objects by their rule, then the
/// save writes again (a conflict that keeps coming back ends in the error):
///
/// ```swift
/// context.mergePolicy = .mergeByPropertyObjectTrump
/// try context.save()      // my changed properties win, the store's others are kept
/// ```
///
/// Conflicts are detected per row (its version), not per property: edits of different
/// properties of one row conflict too, and the policy merges them. To resolve in your own
/// way, subclass and override `resolve(optimisticLockingConflicts:in:)` or
/// `resolve(constraintConflicts:in:)`; as Core Data advises, start from the built-in
/// policy closest to what you want and call `super` for what you leave to it.
open class MergePolicy: @unchecked Sendable {
    // @unchecked Sendable: the built-in policies hold one immutable `let`; subclasses
    // that add state must keep it safe to share between contexts themselves.

    /// Which rule a policy follows (Core Data's `NSMergePolicyType`).
    public enum MergePolicyType: Sendable, Hashable, CustomStringConvertible {
        /// Resolve nothing: the save fails with the conflicts.
        case errorMergePolicyType
        /// Per property: properties changed in the store keep the store's values; the
        /// context's other changes are written.
        case mergeByPropertyStoreTrumpMergePolicyType
        /// Per property: the context's changed properties win; the store's values are
        /// kept for the others.
        case mergeByPropertyObjectTrumpMergePolicyType
        /// The context's whole object is written over the stored row (re-inserted when
        /// the row was deleted).
        case overwriteMergePolicyType
        /// The context's changes to conflicting objects are discarded for the store's.
        case rollbackMergePolicyType

        public var description: String {
            switch self {
            case .errorMergePolicyType: "error"
            case .mergeByPropertyStoreTrumpMergePolicyType: "mergeByPropertyStoreTrump"
            case .mergeByPropertyObjectTrumpMergePolicyType: "mergeByPropertyObjectTrump"
            case .overwriteMergePolicyType: "overwrite"
            case .rollbackMergePolicyType: "rollback"
            }
        }
    }

    /// The rule this policy follows.
    public let mergeType: MergePolicyType

    /// A policy following `type`. Subclasses pass the built-in rule closest to theirs.
    public init(merge type: MergePolicyType) {
        mergeType = type
    }

    // MARK: - The five policies

    /// The default: a conflicting save throws and writes nothing.
    public static let error = MergePolicy(merge: .errorMergePolicyType)
    /// Merges by property, the store's changes winning.
    public static let mergeByPropertyStoreTrump = MergePolicy(merge: .mergeByPropertyStoreTrumpMergePolicyType)
    /// Merges by property, the context's changes winning.
    public static let mergeByPropertyObjectTrump = MergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
    /// Writes the context's whole object over the store's.
    public static let overwrite = MergePolicy(merge: .overwriteMergePolicyType)
    /// Discards the context's changes to conflicting objects.
    public static let rollback = MergePolicy(merge: .rollbackMergePolicyType)

    // MARK: - Resolving

    /// Resolves rows changed in the store since `context` read them, by changing the
    /// context's objects (called by `save()` on the context's queue, before it writes
    /// again). The objects are `context.registeredObject(for: conflict.sourceObjectID)`.
    ///
    /// The built-in rules, for a row X read by contexts A and B, A saving first:
    /// - A and B changed the same property: StoreTrump and Rollback keep A's value,
    ///   ObjectTrump and Overwrite write B's.
    /// - Different properties: both trump policies keep both changes; Overwrite writes
    ///   all of B's object (A's change is lost); Rollback keeps A's and drops B's.
    /// - A deleted X, B changed it: Overwrite re-inserts B's X; the others leave it deleted.
    /// - A changed X, B deleted it: StoreTrump and Rollback undo B's delete (and the
    ///   deletes it cascaded to) and keep A's values; ObjectTrump and Overwrite delete it.
    /// - To-many relationships: B's edits (members added, removed) are replayed on the
    ///   store's members, except that Overwrite writes B's members and Rollback takes the
    ///   store's for a many-to-many relationship (one whose inverse is also to-many). The
    ///   members of a one-to-many relationship are decided by the members' own rows.
    /// Inverse relationships of the context's loaded objects are updated to agree.
    ///
    /// - Throws: under `.error`, the `.mergeConflict` error with `list`.
    open func resolve(optimisticLockingConflicts list: [MergeConflict], in context: ManagedObjectContext) throws {
        guard mergeType != .errorMergePolicyType else { throw CoreDataError.mergeConflict(list) }
        for conflict in list { try context.resolve(conflict, by: mergeType) }
    }

    /// Resolves uniqueness constraints a save violates (called by `save()` on the
    /// context's queue). Each conflict names the objects with the same constrained values:
    /// at most one stored row (`databaseObjectID`) and the context's new or changed
    /// objects (`conflictingObjectIDs`).
    ///
    /// The built-in rules: under both trump policies the stored row survives (with no
    /// stored row, the first conflicting object saved before, or else the first
    /// inserted); ObjectTrump copies the last conflicting object's attributes and to-one
    /// relationships onto it, nils included, StoreTrump keeps the survivor's values.
    /// Under Overwrite the last new object survives and the others, stored row
    /// included, are deleted. Under Rollback an inserted duplicate is deleted and a
    /// changed one refreshed to its stored values. Under every rule, the to-many
    /// relationships of a deleted duplicate move to the survivor, so objects that
    /// pointed at it point at the survivor.
    ///
    /// - Throws: under `.error`, the `.constraintViolation` error with `list`.
    open func resolve(constraintConflicts list: [ConstraintConflict], in context: ManagedObjectContext) throws {
        guard mergeType != .errorMergePolicyType else { throw CoreDataError.constraintViolation(list) }
        for conflict in list { try context.resolve(conflict, by: mergeType) }
    }
}
