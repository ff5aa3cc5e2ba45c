/// Why the demo store cannot be opened, beyond the store's own `CoreDataError`s.
public enum DemoStoreError: Error, CustomStringConvertible, Sendable {
    /// The store file's folder is missing and cannot be created.
    case cannotCreateFolder(String, reason: String)

    public var description: String {
        switch self {
        case let .cannotCreateFolder(path, reason): "Cannot create the store's folder \(path): \(reason)."
        }
    }
}
