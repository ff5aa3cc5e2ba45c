import Foundation

// MARK: - Document state

extension ManagedDocument {
    /// What a document can do now (UIKit's `UIDocument.State`, with its raw values).
    /// Empty (`.normal`) is an open document that saves fine.
    public struct State: OptionSet, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// Open, editable, and the last save (if any) succeeded.
        public static let normal: State = []
        /// Not open: the store is not loaded (before `open`/`.forCreating`, after `close`).
        public static let closed = State(rawValue: 1 << 0)
        /// The last save found rows another context or process changed since they were
        /// read, and the context's merge policy (`.error`) did not resolve them; the
        /// changes are kept. Cleared by the next successful save.
        public static let inConflict = State(rawValue: 1 << 1)
        /// The last save failed; the changes are kept and the next save retries them.
        public static let savingError = State(rawValue: 1 << 2)
        /// The store is read-only (a read-only file or `PersistentStoreOption.readOnly`):
        /// edits cannot be saved.
        public static let editingDisabled = State(rawValue: 1 << 3)

        public var description: String {
            let names: [(State, String)] = [(.closed, "closed"), (.inConflict, "inConflict"), (.savingError, "savingError"), (.editingDisabled, "editingDisabled")]
            let set = names.filter { contains($0.0) }.map(\.1)
            return set.isEmpty ? "normal" : set.joined(separator: ", ")
        }
    }

    /// Why a document is saved (UIKit's `UIDocument.SaveOperation`).
    public enum SaveOperation: Sendable {
        /// The first save: creates the document package and its store. Fails when a
        /// document already exists at the URL.
        case forCreating
        /// A later save of an open document: writes its changes to its store.
        case forOverwriting
    }

    /// Posted on the main queue, with the document as the object, whenever
    /// `documentState` changes (UIKit's `UIDocument.stateChangedNotification`).
    public static let stateChangedNotification = Notification.Name("UIDocumentStateChangedNotification")
}
