import BugsKit
import Foundation
import MultipartKit
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
        let boundary = try self.boundary(ofContentType: contentType)
        let collector = Collector(fileFields: fileFields, limits: limits)
        let parser = MultipartParser(boundary: boundary)
        parser.onHeader = { name, value in collector.header(name, value) }
        parser.onBody = { chunk in collector.body(&chunk) }
        parser.onPartComplete = { collector.partComplete() }

        var received = 0
        var tail = ByteBuffer()
        let closing = Array("\r\n--\(boundary)--".utf8)
        for try await chunk in body {
            received += chunk.readableBytes
            guard received <= limits.body else { throw MultipartFormError.bodyTooLarge(limit: limits.body) }
            do {
                try parser.execute(chunk)
            } catch {
                throw MultipartFormError.malformed
            }
            if let failure = collector.failure { throw failure }
            tail.writeImmutableBuffer(chunk)
            if tail.readableBytes > closing.count + 256 {
                tail = tail.getSlice(at: tail.writerIndex - closing.count - 256, length: closing.count + 256) ?? ByteBuffer()
            }
        }
        guard collector.isBetweenParts, Self.endsWithClosingBoundary(tail, closing: closing) else {
            throw MultipartFormError.malformed
        }
        return MultipartForm(fields: collector.fields, files: collector.files, refusal: collector.refusal)
    }

    /// Whether `tail`, the body's last bytes, ends with the closing delimiter (`\r\n--B--`)
    /// and at most some line breaks and spaces.
    private static func endsWithClosingBoundary(_ tail: ByteBuffer, closing: [UInt8]) -> Bool {
        let bytes = tail.readableBytesView
        let whitespace: Set<UInt8> = [0x0D, 0x0A, 0x20, 0x09]
        var end = bytes.endIndex
        while end > bytes.startIndex, whitespace.contains(bytes[end - 1]) { end -= 1 }
        return bytes[bytes.startIndex ..< end].reversed().starts(with: closing.reversed())
    }
}

extension MultipartForm {
    /// The parts of a body as the parser reports them, with the limits applied.
    ///
    /// Only used inside `read`, on one task: the parser calls it synchronously.
    private final class Collector {
        let fileFields: Set<String>
        let limits: Limits
        private(set) var fields: [String: String] = [:]
        private(set) var files: [String: Data] = [:]
        /// The first rule the body broke, which stops the reading.
        private(set) var failure: MultipartFormError?
        /// The first field or file over its limit: it is skipped, the reading goes on.
        private(set) var refusal: MultipartFormError?

        private var headers = HTTPHeaders()
        private var name: String?
        private var bytes = ByteBuffer()
        /// Whether the current part passed its limit: its bytes are dropped.
        private var isOversized = false
        private var parts = 0

        init(fileFields: Set<String>, limits: Limits) {
            self.fileFields = fileFields
            self.limits = limits
        }

        /// Whether no part is half read: the body ended between parts.
        var isBetweenParts: Bool { headers.isEmpty && name == nil && bytes.readableBytes == 0 }

        func header(_ name: String, _ value: String) {
            headers.add(name: name, value: value)
        }

        func body(_ chunk: inout ByteBuffer) {
            guard failure == nil, let name = currentName(), !isOversized else { return }
            let isFile = fileFields.contains(name)
            let limit = isFile ? limits.file : limits.textField
            guard bytes.readableBytes + chunk.readableBytes <= limit else {
                isOversized = true
                bytes = ByteBuffer()
                if refusal == nil {
                    refusal = isFile ? .fileTooLarge(name: name, limit: limit) : .fieldTooLarge(name: name, limit: limit)
                }
                return
            }
            bytes.writeBuffer(&chunk)
        }

        func partComplete() {
            defer {
                headers = HTTPHeaders()
                name = nil
                bytes = ByteBuffer()
                isOversized = false
            }
            guard failure == nil, let name = currentName() else { return }
            parts += 1
            guard parts <= limits.parts else { return failure = .tooManyParts(limit: limits.parts) }
            guard !isOversized else { return }
            guard fields[name] == nil, files[name] == nil else { return failure = .duplicateField(name: name) }
            if fileFields.contains(name) {
                if bytes.readableBytes > 0 { files[name] = Data(bytes.readableBytesView) }
            } else {
                guard let text = String(validating: bytes.readableBytesView, as: UTF8.self) else {
                    return failure = .notText(name: name)
                }
                fields[name] = text.replacingOccurrences(of: "\r\n", with: "\n")
            }
        }

        /// The part's name, from its `Content-Disposition` header; nil (and a failure)
        /// for a part without one.
        private func currentName() -> String? {
            if let name { return name }
            guard let found = MultipartPart(headers: headers, body: ByteBuffer()).name, !found.isEmpty else {
                failure = .malformed
                return nil
            }
            name = found
            return found
        }
    }
}
