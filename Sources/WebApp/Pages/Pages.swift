import Foundation
import Hummingbird
import Mustache

/// The app's Mustache templates (`Templates/`, shipped with the target). `{{ }}` escapes
/// what it prints for HTML text and attributes alike, so user text can never become
/// markup; templates use `{{{ }}}` only for HTML the templates themselves rendered.
struct Pages: Sendable {
    let library: MustacheLibrary
    /// The list rows rendered lately (`renderRow`).
    let rows = RenderedRows(capacity: 4096)

    /// Loads every template in the target's `Templates` folder.
    ///
    /// - Throws: `WebError.storeFailed`-like server error when the folder is missing or a
    ///   template does not parse (a packaging mistake, reported at start).
    static func load() async throws -> Pages {
        guard let folder = Bundle.module.url(forResource: "Templates", withExtension: nil) else {
            throw WebAppStartError.missingResources("Templates")
        }
        return Pages(library: try await MustacheLibrary(directory: folder.path))
    }

    /// `template` rendered with `values`.
    func render(_ template: String, _ values: Any) throws(WebError) -> String {
        guard let html = library.render(values, withTemplate: template) else {
            throw WebError(status: .internalServerError, message: "The page \(template) is missing.")
        }
        return html
    }

    /// A list's row: `template` rendered with `values`, or the same row rendered before.
    func renderRow<Values: Hashable & Sendable>(_ template: String, _ values: Values) throws(WebError) -> String {
        try rows.html(template, values) { () throws(WebError) -> String in try render(template, values) }
    }

    /// A whole HTML page as a response.
    func page(_ template: String, _ values: Any, status: HTTPResponse.Status = .ok) throws(WebError) -> Response {
        Self.html(try render(template, values), status: status)
    }

    /// `html` as a `text/html` response, never cached (it shows live data).
    static func html(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: html))
        )
    }
}

/// Why the web app cannot start: its own files are missing from the build.
public enum WebAppStartError: Error, CustomStringConvertible, Sendable {
    case missingResources(String)

    public var description: String {
        switch self {
        case let .missingResources(folder): "The web app's \(folder) folder is missing from its resources; rebuild the package."
        }
    }
}
