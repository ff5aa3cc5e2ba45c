/// The open event's record of a context: each object touched since the event began, with
/// a snapshot of it as it was before its first change (see `ManagedObject.willChange()`).
/// `processPendingChanges()` closes it into a `ChangeSet`.
///
/// Snapshots are taken only while someone consumes change sets (`isRecording`); without
/// consumers the ledger only counts touches, so the first-touch check stays the whole cost
/// of change recording.
struct ChangeLedger {
    /// One touched object and its state before the event.
    struct Touch {
        let object: ManagedObject
        let before: ObjectSnapshot
    }

    /// Whether snapshots are taken (a consumer is attached).
    var isRecording = false
    /// The objects touched in the open event, in first-touch order, while recording.
    private(set) var touches: [Touch] = []
    /// Objects refreshed from the store in the open event.
    private(set) var refreshed: Set<ObjectIdentifier> = []
    /// How many objects the open event touched (recording or not).
    private(set) var touchCount = 0
    /// Set while the open event applies changes saved elsewhere (`merge(_:)`).
    var isMerge = false
    /// Objects a merge registered for rows inserted elsewhere, while recording: the
    /// event's change set lists them as inserted.
    private(set) var mergedInserts: [ManagedObject] = []

    var isEmpty: Bool { touchCount == 0 && mergedInserts.isEmpty }

    /// Records `object` before its first change in the event.
    mutating func record(_ object: ManagedObject) {
        touchCount += 1
        if isRecording { touches.append(Touch(object: object, before: object.snapshot())) }
    }

    /// Notes that `object` was refreshed from the store in this event.
    mutating func noteRefreshed(_ object: ManagedObject) {
        if isRecording { refreshed.insert(ObjectIdentifier(object)) }
    }

    /// Notes that a merge registered `object` for a row inserted elsewhere.
    mutating func noteMergedInsert(_ object: ManagedObject) {
        if isRecording { mergedInserts.append(object) }
    }

    /// Ends the event: the touches, and an empty ledger for the next one.
    mutating func close() -> (touches: [Touch], refreshed: Set<ObjectIdentifier>) {
        defer {
            touches = []
            refreshed = []
            touchCount = 0
            mergedInserts = []
        }
        return (touches, refreshed)
    }
}
