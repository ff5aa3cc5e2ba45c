import Foundation

// MARK: - Finding a model in a bundle

extension ManagedObjectModel {
    /// Loads the source model `name` from `bundle`: `name.xcdatamodeld` (its current
    /// version), else `name.xcdatamodel`.
    ///
    /// On Linux an app's model is a resource of its own target, copied as is: declare
    /// `resources: [.copy("Model.xcdatamodeld")]` and pass `bundle: .module`. `Bundle.main`
    /// (the default) holds only what sits next to the executable.
    ///
    /// - Throws: `CoreDataError.invalidModel` naming the folders searched when there is no
    ///   such model, or saying to ship the source model when only a compiled `name.momd` or
    ///   `name.mom` is there (OpenCoreData reads Xcode's source format, not the compiled
    ///   one); the errors of `init(contentsOf:)` for a malformed model.
    public convenience init(named name: String, bundle: Bundle = .main) throws {
        try self.init(contentsOf: ModelBundle.locate(named: name, in: bundle))
    }
}

extension ModelBundle {
    /// The compiled forms Xcode's `momc` makes, which this library does not read.
    static let compiledExtensions = ["momd", "mom"]

    /// The source model `name` in `bundle`.
    static func locate(named name: String, in bundle: Bundle) throws -> URL {
        let folders = searchFolders(of: bundle)
        for ext in [bundleExtension, versionExtension] {
            if let url = find(name, ext, in: bundle, folders: folders) { return url }
        }
        for ext in compiledExtensions {
            if let url = find(name, ext, in: bundle, folders: folders) {
                throw CoreDataError(.invalidModel, "Found only the compiled model \(url.path). OpenCoreData reads the source model: ship \(name).\(bundleExtension) itself, e.g. resources: [.copy(\"\(name).\(bundleExtension)\")] in the target, and load it from Bundle.module.")
            }
        }
        let searched = folders.map(\.path).joined(separator: ", ")
        throw CoreDataError(.invalidModel, "No model named '\(name)' (\(name).\(bundleExtension) or \(name).\(versionExtension)) in the bundle at \(bundle.bundleURL.path); searched \(searched). On Linux an app's model ships in its target's Bundle.module: add resources: [.copy(\"\(name).\(bundleExtension)\")] and pass bundle: .module.")
    }

    /// The folders a bundle's resources may be in: its resource folder and its root
    /// (the same folder for SwiftPM's flat resource bundles).
    private static func searchFolders(of bundle: Bundle) -> [URL] {
        var folders: [URL] = []
        for folder in [bundle.resourceURL, bundle.bundleURL].compactMap({ $0?.standardizedFileURL }) where !folders.contains(folder) {
            folders.append(folder)
        }
        return folders
    }

    private static func find(_ name: String, _ ext: String, in bundle: Bundle, folders: [URL]) -> URL? {
        if let url = bundle.url(forResource: name, withExtension: ext) { return url }
        for folder in folders {
            let url = folder.appendingPathComponent("\(name).\(ext)")
            if FileManager.default.fileExists(atPath: url.path) { return url }
        }
        return nil
    }
}
