import Foundation
import Hummingbird

/// A submitted form's fields (and, for a multipart form, its files), read within a size
/// limit. Any problem — too large, not a form, not decodable — is a `WebError` with a 4xx
/// status, never a crash.
struct Form: Sendable {
    var fields: [String: String]
    var files: [String: Data] = [:]

    /// The text of field `name`, or nil.
    subscript(name: String) -> String? { fields[name] }

    /// Reads an `application/x-www-form-urlencoded` body of at most `limit` bytes.
    static func read(_ request: Request, limit: Int) async throws(WebError) -> Form {
        guard let type = request.headers[.contentType]?.lowercased(), type.hasPrefix("application/x-www-form-urlencoded") else {
            throw WebError(status: .unsupportedMediaType, message: "The form was not sent as a form.")
        }
        return try parse(try await body(of: request, limit: limit))
    }

    /// The request's body, at most `limit` bytes.
    static func body(of request: Request, limit: Int) async throws(WebError) -> ByteBuffer {
        do {
            return try await request.body.collect(upTo: limit)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw .tooLarge
        } catch {
            throw .badRequest("The form could not be read.")
        }
    }

    /// Parses URL-encoded `name=value&…` pairs; the first of repeated names counts.
    static func parse(_ body: ByteBuffer) throws(WebError) -> Form {
        var fields: [String: String] = [:]
        for pair in String(buffer: body).split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]), let value = decode(parts.count > 1 ? parts[1] : "") else {
                throw .badRequest("The form is malformed.")
            }
            if fields[name] == nil { fields[name] = value }
        }
        return Form(fields: fields)
    }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// Field `name` as an integer.
    func integer(_ name: String) throws(WebError) -> Int {
        guard let text = fields[name], let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
            throw .badRequest("“\(name)” must be a whole number.")
        }
        return value
    }
}
