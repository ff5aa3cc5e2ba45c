import Foundation
import OpenCoreData

/// A project of the tracker: a name, an optional web address, and its bugs (deleted with
/// it).
///
/// `host` is stored, so that the project list can be sectioned and sorted by it in the
/// store, and is kept in sync with `url`: the `url` setter derives it at once (a fetched
/// results controller sees the project in its new section in the same event), and
/// `willSave()` derives it again for a `url` written by key-value coding
/// (`setValue(_:forKey: "url")`), which bypasses the setter.
public final class Project: ManagedObject {
    /// The project's name; not necessarily unique.
    @Managed public var name: String
    @Managed("url") private var storedURL: String?
    /// The host of `url`, lowercased (`github.com`); nil when there is no URL or the URL
    /// has no host (`mailto:`). Derived from `url`: never set it directly.
    @Managed public private(set) var host: String?
    /// The project's bugs; deleting the project deletes them (cascade).
    @Managed public var bugs: Set<Bug>

    /// The project's web address as entered, or nil; setting it updates `host`.
    public var url: String? {
        get { storedURL }
        set {
            storedURL = newValue
            syncHost()
        }
    }

    /// Derives `host` from `url` written by key-value coding, before the save validates.
    override public func willSave() {
        super.willSave()
        if !isDeleted { syncHost() }
    }

    /// Sets `host` from `url`, only when it differs: an object whose host already matches
    /// stays unchanged (no update, no undo registration during a save).
    private func syncHost() {
        let derived = Self.host(of: storedURL)
        if host != derived { host = derived }
    }

    /// The lowercased host of `url`, or nil when it is nil, does not parse as a URL or
    /// has no host.
    ///
    /// ```swift
    /// Project.host(of: "https://GitHub.com/apple/swift")   // "github.com"
    /// Project.host(of: "mailto:bugs@example.com")           // nil
    /// ```
    public static func host(of url: String?) -> String? {
        guard let url, let host = URLComponents(string: url)?.host, !host.isEmpty else { return nil }
        return host.lowercased()
    }
}
