import Foundation
import Hummingbird

/// How a form's action is answered: a plain form gets a 303 back to the page it came from
/// (Post/Redirect/Get, so reloading never repeats it); the page's script, which asks for
/// JSON, gets `{"ok":true,"undo":…,"redo":…}` and lets the event stream update the rows.
enum ActionResponse {
    /// Whether the request is the script's (`Accept: application/json`).
    static func wantsJSON(_ request: Request) -> Bool {
        request.headers[.accept]?.contains("application/json") ?? false
    }

    /// The answer to a successful action of `tab`.
    static func done(_ request: Request, back: String?, fallback: String, tab: Tab) -> Response {
        if wantsJSON(request) { return json(ok: true, message: nil, undo: tab.undoState, status: .ok) }
        return Response(status: .seeOther, headers: [.location: safePath(back) ?? fallback])
    }

    /// A JSON answer for the page's script.
    static func json(ok: Bool, message: String?, undo: UndoState?, status: HTTPResponse.Status) -> Response {
        struct Answer: Encodable {
            let ok: Bool
            let message: String?
            let undo: String?
            let redo: String?
        }
        let data = (try? JSONEncoder().encode(Answer(ok: ok, message: message, undo: undo?.undo, redo: undo?.redo))) ?? Data("{\"ok\":false}".utf8)
        return Response(status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// `path` when it is a path on this server (`/…`, not `//host` or `/\host`), so that a
    /// form's `back` field can never send the browser to another site.
    static func safePath(_ path: String?) -> String? {
        guard let path, path.hasPrefix("/"), !path.hasPrefix("//"), !path.hasPrefix("/\\"),
              !path.contains(where: { $0.isNewline || $0 == "\0" })
        else { return nil }
        return path
    }
}
