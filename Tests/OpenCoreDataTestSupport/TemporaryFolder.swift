import Foundation

/// A unique temporary folder, removed when the value is released.
package final class TemporaryFolder {
    package let url: URL
    package init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    package func file(_ name: String = "store.sqlite") -> URL { url.appendingPathComponent(name) }

    /// Writes `text` at `relativePath`, creating folders, and returns its URL.
    @discardableResult
    package func write(_ text: String, to relativePath: String) throws -> URL {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file
    }
}
