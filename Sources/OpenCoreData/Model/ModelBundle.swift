import Foundation

/// A model on disk: a `.xcdatamodeld` bundle of versions, one `.xcdatamodel` folder,
/// or the `contents` XML file inside such a folder. Finds which `contents` file to read.
struct ModelBundle {
    /// The `contents` file to parse and, when read from a bundle, the version's name.
    struct Selection {
        var contentsURL: URL
        var versionName: String?
    }

    static let bundleExtension = "xcdatamodeld"
    static let versionExtension = "xcdatamodel"
    /// The plist in a bundle that names the current version.
    static let currentVersionFile = ".xccurrentversion"
    static let currentVersionKey = "_XCCurrentVersionName"

    // MARK: - Locating the contents file

    /// The `contents` file for `url`; `versionName` picks a version of a bundle
    /// (nil: the bundle's current version).
    static func select(_ url: URL, versionName: String?) throws -> Selection {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CoreDataError(.invalidModel, "There is no model at \(path).")
        }
        guard isDirectory.boolValue else {
            if let versionName {
                throw CoreDataError(.invalidModel, "Cannot choose version '\(versionName)' of \(path): it is a model file, not a .\(bundleExtension) bundle.")
            }
            return Selection(contentsURL: url, versionName: nil)
        }
        if isBundle(url) {
            let name = try versionName.map { try matchVersion($0, inBundleAt: url) } ?? currentVersionName(inBundleAt: url)
            let folder = url.appendingPathComponent("\(name).\(versionExtension)", isDirectory: true)
            return Selection(contentsURL: contentsFile(in: folder), versionName: name)
        }
        if let versionName {
            throw CoreDataError(.invalidModel, "Cannot choose version '\(versionName)' of \(path): it is a single model version, not a .\(bundleExtension) bundle.")
        }
        return Selection(contentsURL: contentsFile(in: url), versionName: nil)
    }

    /// Whether `url` (a folder) is a bundle of versions rather than one version's folder.
    private static func isBundle(_ url: URL) -> Bool {
        if url.pathExtension == bundleExtension { return true }
        if url.pathExtension == versionExtension { return false }
        let contents = url.appendingPathComponent("contents").path
        return !FileManager.default.fileExists(atPath: contents) && !((try? versionFolders(in: url)) ?? []).isEmpty
    }

    private static func contentsFile(in folder: URL) -> URL {
        folder.appendingPathComponent("contents", isDirectory: false)
    }

    // MARK: - Versions

    /// The names of the bundle's versions (folder names without `.xcdatamodel`), sorted
    /// so that "Model 2" comes before "Model 10".
    static func versionNames(inBundleAt url: URL) throws -> [String] {
        try versionFolders(in: url)
            .map { String($0.dropLast(versionExtension.count + 1)) }
            .sorted { $0.compare($1, options: [.numeric]) == .orderedAscending }
    }

    private static func versionFolders(in url: URL) throws -> [String] {
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: url.path)
        } catch {
            throw CoreDataError(.invalidModel, "Cannot list the model versions in \(url.path): \(error.localizedDescription)")
        }
        return entries.filter { $0.hasSuffix(".\(versionExtension)") }
    }

    /// The version `name` (with or without `.xcdatamodel`), checked against the bundle's versions.
    private static func matchVersion(_ name: String, inBundleAt url: URL) throws -> String {
        let versions = try versionNames(inBundleAt: url)
        let wanted = name.hasSuffix(".\(versionExtension)") ? String(name.dropLast(versionExtension.count + 1)) : name
        guard versions.contains(wanted) else {
            throw CoreDataError(.invalidModel, "The model bundle \(url.path) has no version '\(name)'. Its versions are: \(list(versions)).")
        }
        return wanted
    }

    /// The version `.xccurrentversion` names, or the only version of a bundle that names none.
    ///
    /// - Throws: `.ambiguousModelVersion` when several versions exist and none is named.
    static func currentVersionName(inBundleAt url: URL) throws -> String {
        let versions = try versionNames(inBundleAt: url)
        guard !versions.isEmpty else {
            throw CoreDataError(.invalidModel, "The model bundle \(url.path) contains no .\(versionExtension) version.")
        }
        if let named = try namedCurrentVersion(inBundleAt: url) {
            guard versions.contains(named) else {
                throw CoreDataError(.invalidModel, "The model bundle \(url.path) names '\(named)' as its current version, but its versions are: \(list(versions)).")
            }
            return named
        }
        guard versions.count == 1 else {
            throw CoreDataError(.ambiguousModelVersion, "The model bundle \(url.path) has \(versions.count) versions and names none as current: \(list(versions)). Choose one with init(contentsOf:versionName:).")
        }
        return versions[0]
    }

    /// The version named by `.xccurrentversion`, or nil when the file is missing or names none.
    private static func namedCurrentVersion(inBundleAt url: URL) throws -> String? {
        let file = url.appendingPathComponent(currentVersionFile)
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: Data(contentsOf: file), options: [], format: nil)
        } catch {
            throw CoreDataError(.invalidModel, "The current-version file \(file.path) is not a readable property list: \(error.localizedDescription)")
        }
        guard let dictionary = plist as? [String: Any] else {
            throw CoreDataError(.invalidModel, "The current-version file \(file.path) is not a dictionary property list.")
        }
        guard let name = dictionary[currentVersionKey] as? String, !name.isEmpty else { return nil }
        return name.hasSuffix(".\(versionExtension)") ? String(name.dropLast(versionExtension.count + 1)) : name
    }

    private static func list(_ versions: [String]) -> String {
        versions.map { "'\($0)'" }.joined(separator: ", ")
    }
}
