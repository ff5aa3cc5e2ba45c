import Foundation

// MARK: - Loading Xcode models

extension ManagedObjectModel {
    /// Loads a model that Xcode's model editor saved, so an existing app's schema can be used as is.
    ///
    /// `url` may be a `.xcdatamodeld` bundle (its current version is loaded: the one its
    /// `.xccurrentversion` names, or its only version), a `.xcdatamodel` folder, or the
    /// `contents` XML file inside one. The model is not validated until a coordinator uses
    /// it; relationships are resolved by name at that point.
    ///
    /// - Throws: `CoreDataError.invalidModel` for a missing, unreadable or malformed file
    ///   (with its path and line); `.ambiguousModelVersion` for a bundle with several
    ///   versions and no current one.
    public convenience init(contentsOf url: URL) throws {
        try self.init(selection: ModelBundle.select(url, versionName: nil))
    }

    /// Loads version `versionName` ("Model 2", with or without `.xcdatamodel`) of the
    /// `.xcdatamodeld` bundle at `url`, e.g. the source model of a migration.
    ///
    /// - Throws: `CoreDataError.invalidModel` when the bundle has no such version (the
    ///   message lists the versions) or the version's file is missing or malformed.
    public convenience init(contentsOf url: URL, versionName: String) throws {
        try self.init(selection: ModelBundle.select(url, versionName: versionName))
    }

    /// The names of the versions in the `.xcdatamodeld` bundle at `url`, sorted
    /// ("Model", "Model 2", …, "Model 10"), for use with `init(contentsOf:versionName:)`.
    public static func versionNames(inBundleAt url: URL) throws -> [String] {
        try ModelBundle.versionNames(inBundleAt: url)
    }

    private convenience init(selection: ModelBundle.Selection) throws {
        let path = selection.contentsURL.path
        let data: Data
        do {
            data = try Data(contentsOf: selection.contentsURL)
        } catch {
            throw CoreDataError(.invalidModel, "Cannot read the model file \(path): \(error.localizedDescription)")
        }
        let contents = try XcodeModelParser.parse(data, path: path)
        self.init(entities: contents.entities)
        configurations = contents.configurations
        versionIdentifiers = contents.versionIdentifier.map { [$0] } ?? []
        versionName = selection.versionName
    }
}
