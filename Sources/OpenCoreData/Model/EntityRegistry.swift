/// The process-wide table behind the entity serial every `ManagedObjectID` carries:
/// serial → entity, so that an ID is a plain value with no class reference.
///
/// A model layout registers its entities when it is built (`ModelLayout.init`), before
/// any ID carrying their serials exists; an entity used for an ID before its model is
/// frozen (a probe, an object created outside any coordinator) is registered under a
/// serial of its own on first use. Registered entities, and the layouts holding them, are
/// kept for the life of the process: an ID may outlive every other reference to its
/// model, and models are few.
///
/// Reads take no lock: the table is a fixed array of chunk pointers whose chunks are
/// allocated and filled under `state`'s lock, and a serial is read only from an ID, which
/// was made after its entry was written (and reached the reader through whatever
/// synchronisation handed the ID over).
enum EntityRegistry {
    private static let chunkBits = 12
    private static let chunkSize = 1 << chunkBits
    /// Chunks in the table: room for 64 million serials.
    private static let chunkCount = 1 << 14

    private struct Table: @unchecked Sendable {
        // @unchecked Sendable: chunk pointers and entries are written once, under `state`'s
        // lock, before any ID carrying their serial exists; never changed after.
        let chunks: UnsafeMutablePointer<UnsafeMutablePointer<Unmanaged<EntityDescription>>?>
    }

    private static let table: Table = {
        let chunks = UnsafeMutablePointer<UnsafeMutablePointer<Unmanaged<EntityDescription>>?>.allocate(capacity: chunkCount)
        chunks.initialize(repeating: nil, count: chunkCount)
        return Table(chunks: chunks)
    }()

    private struct State {
        /// The last serial handed out (0 is never one).
        var last: UInt32 = 0
        /// Serials of entities registered before their model was frozen.
        var unfrozen: [ObjectIdentifier: UInt32] = [:]
    }

    private static let state = SanitizedMutex(State())

    /// Registers `entities` (one layout's) under consecutive new serials, in order, and
    /// returns them.
    static func register(_ entities: [EntityDescription]) -> Range<UInt32> {
        state.withLock { state in
            let first = state.last + 1
            for entity in entities { _ = register(entity, in: &state) }
            return first..<(state.last + 1)
        }
    }

    /// The serial of an entity whose model is not frozen, registered on first use.
    static func serial(ofUnfrozen entity: EntityDescription) -> UInt32 {
        state.withLock { state in
            if let known = state.unfrozen[ObjectIdentifier(entity)] { return known }
            let serial = register(entity, in: &state)
            state.unfrozen[ObjectIdentifier(entity)] = serial
            return serial
        }
    }

    private static func register(_ entity: EntityDescription, in state: inout State) -> UInt32 {
        let serial = state.last + 1
        let chunk = Int(serial) >> chunkBits
        precondition(chunk < chunkCount, "EntityRegistry: more than \(chunkCount * chunkSize - 1) entities registered; build models once and reuse them.")
        if table.chunks[chunk] == nil {
            table.chunks[chunk] = .allocate(capacity: chunkSize)
        }
        (table.chunks[chunk].unsafelyUnwrapped + (Int(serial) & (chunkSize - 1))).initialize(to: .passRetained(entity))
        state.last = serial
        return serial
    }

    /// The entity registered under `serial`, which must come from an object ID.
    @inline(__always)
    static func entity(_ serial: UInt32) -> EntityDescription {
        let chunk = table.chunks[Int(serial) >> chunkBits].unsafelyUnwrapped
        return chunk[Int(serial) & (chunkSize - 1)].takeUnretainedValue()
    }
}

extension EntityDescription {
    /// The serial object IDs of this entity carry: its layout's (`EntitySlots.serial`),
    /// or, before its model is frozen, one registered for it alone.
    var objectIDSerial: UInt32 {
        frozenSlots?.serial ?? EntityRegistry.serial(ofUnfrozen: self)
    }
}
