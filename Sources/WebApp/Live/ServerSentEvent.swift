import Foundation

/// One server-sent event: its name and its data, a line of JSON.
struct ServerSentEvent: Sendable {
    let name: String
    let data: String

    /// An event whose data is `value` as JSON (one line: JSON escapes newlines).
    static func json(_ name: String, _ value: some Encodable) throws -> ServerSentEvent {
        ServerSentEvent(name: name, data: String(decoding: try JSONEncoder().encode(value), as: UTF8.self))
    }

    /// The event as the `text/event-stream` format writes it.
    var text: String { "event: \(name)\ndata: \(data)\n\n" }
}
