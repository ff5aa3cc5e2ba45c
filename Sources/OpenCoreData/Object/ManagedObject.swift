import Foundation

/// An object of the graph: an instance of an entity, registered in one context.
///
/// Read and write its properties by key (`value(forKey:)`, `setValue(_:forKey:)`) or
/// through a typed subclass. A fetched object starts as a *fault*: it knows its
/// `objectID` but loads its values only when one is first read. Objects are confined to
/// their context's queue and are not `Sendable`; pass `objectID` between threads instead.
open class ManagedObject: KeyValueCoding, Hashable, CustomStringConvertible {
    /// The object's entity.
    public var entity: EntityDescription { objectID.entity }
    /// The object's identity: temporary until saved, then permanent.
    @exclusivity(unchecked) public internal(set) var objectID: ManagedObjectID
    /// The context the object is registered in (`nil` once the context is gone or reset).
    public var managedObjectContext: ManagedObjectContext? { context }

    // MARK: - Storage (owned by the context's queue)
    //
    // `@exclusivity(unchecked)`: objects are confined to their context's queue and these
    // properties are never accessed overlappingly; the runtime's dynamic exclusivity
    // checks on them cost about a tenth of insert and fetch time.

    /// The entity's slots, held here so hot paths need not retain the entity.
    @usableFromInline let slots: EntitySlots!

    /// The context, held without retaining it; the context clears it when it lets go.
    @exclusivity(unchecked) var contextReference: Unmanaged<ManagedObjectContext>?
    /// The context, as a strong reference for the caller (see `contextReference`).
    var context: ManagedObjectContext? {
        @inline(__always) get { contextReference?.takeUnretainedValue() }
        @inline(__always) set { contextReference = newValue.map { Unmanaged.passUnretained($0) } }
    }
    /// Current values by slot (see `EntitySlots`, `SlotValue`): attributes unboxed,
    /// to-one relationships as `.object(id)`; to-many slots stay `.null` (see `ObjectExtras`).
    /// Copy-on-write: a snapshot of it costs a reference.
    @exclusivity(unchecked) var values: SlotValues
    /// The values last read from or written to the store (nil for a new object).
    @exclusivity(unchecked) var committed: RowSnapshot?
    /// Slots changed since the last save.
    @exclusivity(unchecked) var changedSlots = SlotSet()
    /// Loaded to-many relationships and values awaiting a check, made when first needed.
    @exclusivity(unchecked) var extras: ObjectExtras?
    /// Whether values have not been loaded yet.
    @exclusivity(unchecked) var faulted: Bool
    /// Set when the row behind a fault turned out to be deleted by someone else.
    @exclusivity(unchecked) var isInaccessible = false
    /// Where the object is between saves (see `Lifecycle`).
    @exclusivity(unchecked) var lifecycle = Lifecycle.saved
    /// Whether the context lists the object among those that may have pending changes.
    @exclusivity(unchecked) var isListed = false
    /// The context's event in which the object was last touched: equal to the context's
    /// current event number when the open ledger already holds its snapshot.
    @exclusivity(unchecked) var eventNumber: UInt32 = 0

    /// Creates a new object of `entity` and inserts it into `context`, as
    /// `EntityDescription.insertNewObject(forEntityName:into:)` does. With a nil context
    /// the object stays unregistered until `context.insert(_:)`.
    public required init(entity: EntityDescription, insertInto context: ManagedObjectContext?) {
        slots = entity.frozenSlots
        objectID = .makeTemporary(for: entity)
        values = []
        faulted = false
        if let context { context.insert(self) }
    }

    deinit {
        detach()
    }

    // MARK: - State

    /// Whether the object will be inserted by the next save.
    var isPendingInsert: Bool { lifecycle == .inserted }
    /// Whether the object is deleted (and will be removed by the next save, unless it was
    /// never saved).
    var isPendingDelete: Bool { lifecycle == .deleted || lifecycle == .discarded }

    /// Whether the object is new in its context and not yet saved.
    public var isInserted: Bool { isPendingInsert }
    /// Whether the object has unsaved changes to its properties.
    public var isUpdated: Bool { !changedSlots.isEmpty && !isPendingInsert && !isPendingDelete }
    /// Whether the object will be deleted by the next save (or its row is gone).
    public var isDeleted: Bool { isPendingDelete || isInaccessible }
    /// Whether the object's values have not been loaded yet.
    public var isFault: Bool { faulted }
    /// Whether the object is inserted, updated or deleted.
    public var hasChanges: Bool { isPendingInsert || isPendingDelete || !changedSlots.isEmpty }

    // MARK: - Lifecycle hooks (override; call super)

    /// Called once when the object is first inserted into a context; set defaults here.
    open func awakeFromInsert() {}
    /// Called when a fault's values are first loaded from the store.
    open func awakeFromFetch() {}
    /// Called when the object is about to be deleted, before delete rules run.
    open func prepareForDeletion() {}
    /// Called before the object is saved.
    open func willSave() {}
    /// Called after the object has been saved.
    open func didSave() {}

    // MARK: - Validation hooks (override; call super)

    /// Checks the object before it is first saved.
    ///
    /// - Throws: a `CoreDataError` for one failure, or `.validationMultipleErrors` with
    ///   every failure in `underlyingErrors`.
    open func validateForInsert() throws { try validatePropertyValues() }
    /// Checks the object before a changed version is saved.
    open func validateForUpdate() throws { try validatePropertyValues() }
    /// Checks that the object may be deleted: no deny-rule relationship still holds objects.
    open func validateForDelete() throws { try validateDenyRules() }

    // MARK: - Identity

    public static func == (lhs: ManagedObject, rhs: ManagedObject) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    open var description: String {
        "<\(entity.name): \(objectID)\(faulted ? " (fault)" : "")>"
    }
}
