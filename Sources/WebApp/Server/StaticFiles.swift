import Foundation
import Hummingbird

/// The files under `/static/` (the script and the style sheet), read once at start from
/// the target's `Public` folder and served from memory by exact name, so no request path
/// ever reaches the file system.
struct StaticFiles: Sendable {
    let files: [String: (type: String, body: ByteBuffer)]

    static func load() throws -> StaticFiles {
        guard let folder = Bundle.module.url(forResource: "Public", withExtension: nil),
              let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { throw WebAppStartError.missingResources("Public") }
        var files: [String: (type: String, body: ByteBuffer)] = [:]
        for name in names {
            guard let type = mediaType(of: name), let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else { continue }
            files[name] = (type, ByteBuffer(bytes: data))
        }
        return StaticFiles(files: files)
    }

    private static func mediaType(of name: String) -> String? {
        if name.hasSuffix(".js") { return "text/javascript; charset=utf-8" }
        if name.hasSuffix(".css") { return "text/css; charset=utf-8" }
        if name.hasSuffix(".svg") { return "image/svg+xml" }
        return nil
    }

    func register(on router: Router<WebRequestContext>) {
        router.get("/static/{name}") { _, context -> Response in
            guard let name = context.parameters.get("name"), let file = files[name] else {
                throw WebError.notFound()
            }
            return Response(status: .ok, headers: [.contentType: file.type, .cacheControl: "no-cache"], body: .init(byteBuffer: file.body))
        }
    }
}
