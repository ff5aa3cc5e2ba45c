import BugsKit
import Foundation
import NIOCore

/// A `multipart/form-data` body read with limits: its text fields and its files, by name.
///
/// The body is parsed as it arrives (MultipartKit's `MultipartParser`), and never kept
/// beyond `Limits.body` bytes. A field or a file over its own limit is left out and
/// recorded as the form's `refusal`, and the rest of the body is still read (within
/// `Limits.body`): the other fields — the tab, the token, the page to come back to — let
/// the answer be the page with a message rather than a bare error.
/// Only the fields named in `fileFields` may carry bytes up to `Limits.file`; every other
/// part is a text field of at most `Limits.textField` bytes of UTF-8, its line breaks
/// normalised to `\n` (browsers send a textarea's as `\r\n`). A file part with no bytes is
/// a file input left empty: it is not in `files`. Nothing about a file is taken from the
/// client but its bytes: neither its name nor its declared type.
///
/// For example:
///
/// ```swift
/// let form = try await MultipartForm.read(request.body, contentType: request.headers[.contentType],
///                                         fileFields: ["screenshot"])
/// form.fields["title"]      // "Crash on save"
/// form.files["screenshot"]  // the image's bytes, or nil
/// ```
struct MultipartForm: Sendable, Equatable {
    /// How much a form may carry.
    struct Limits: Sendable, Equatable {
        /// The largest text field, in bytes: room for a bug's 10,000 characters of details
        /// in any script (up to 4 bytes each), with its line breaks.
        var textField = 64 * 1024
        /// The largest file: a screenshot's limit.
        var file = Screenshot.maximumSize
        /// The most parts a form may have.
        var parts = 16
        /// The largest body, in bytes: a screenshot and the form's text around it (the web
        /// app passes its `WebAppConfiguration.maxUploadSize`).
        var body = Screenshot.maximumSize + 64 * 1024

        /// The limits of the tracker's forms.
        static let standard = Limits()
    }

    /// The text fields, by name.
    var fields: [String: String]
    /// The files that were given, by name (a file input left empty is absent).
    var files: [String: Data]
    /// The first field or file that was over its limit (and so is absent), or nil.
    var refusal: MultipartFormError?

    /// Reads a multipart body.
    ///
    /// - Parameters:
    ///   - body: the request's body, as it arrives.
    ///   - contentType: the request's `Content-Type`, which carries the boundary.
    ///   - fileFields: the names of the fields that are files.
    ///   - limits: the form's limits.
    /// - Throws: `MultipartFormError` for a body that is not multipart, malformed,
    ///   incomplete, over `limits.body` or with more than `limits.parts` parts, a field
    ///   sent twice or a text field that is not UTF-8; the body's own errors as they are.
    static func read<Body: AsyncSequence>(
        _ body: Body, contentType: String?, fileFields: Set<String>, limits: Limits = .standard
    ) async throws -> MultipartForm where Body.Element == ByteBuffer {
        let reader = Reader(boundary: try boundary(ofContentType: contentType), fileFields: fileFields, limits: limits)
        for try await chunk in body {
            // In a debug build the parser takes about a second per MiB: off the
            // cooperative pool, so that other requests go on meanwhile.
            try await offload { try reader.consume(chunk) }
        }
        return try reader.finish()
    }
}
