import BugsKit
import Foundation
import MultipartKit
import NIOCore

extension MultipartForm {
    /// One body's reading: MultipartKit's parser, the parts it reports, and the checks on
    /// the whole (its size, its closing boundary).
    final class Reader: @unchecked Sendable {
        // @unchecked Sendable: `read` hands it one chunk at a time and awaits each
        // `consume` before the next, so it is never used by two threads at once.
        private let parser: MultipartParser
        private let collector: Collector
        private let limits: Limits
        /// The closing delimiter, `\r\n--B--`.
        private let closing: [UInt8]
        /// The body's last bytes, for the closing delimiter.
        private var tail = ByteBuffer()
        private var received = 0

        init(boundary: String, fileFields: Set<String>, limits: Limits) {
            let collector = Collector(fileFields: fileFields, limits: limits)
            parser = MultipartParser(boundary: boundary)
            parser.onHeader = { name, value in collector.header(name, value) }
            parser.onBody = { chunk in collector.body(&chunk) }
            parser.onPartComplete = { collector.partComplete() }
            self.collector = collector
            self.limits = limits
            closing = Array("\r\n--\(boundary)--".utf8)
        }

        /// Parses the body's next bytes.
        ///
        /// - Throws: `MultipartFormError` as soon as the body breaks a rule that stops
        ///   the reading (see `MultipartForm.read`).
        func consume(_ chunk: ByteBuffer) throws(MultipartFormError) {
            received += chunk.readableBytes
            guard received <= limits.body else { throw .bodyTooLarge(limit: limits.body) }
            do {
                try parser.execute(chunk)
            } catch {
                throw .malformed
            }
            if let failure = collector.failure { throw failure }
            tail.writeImmutableBuffer(chunk)
            let kept = closing.count + 256
            if tail.readableBytes > kept {
                tail = tail.getSlice(at: tail.writerIndex - kept, length: kept) ?? ByteBuffer()
            }
        }

        /// The form, once the body has ended.
        ///
        /// - Throws: `MultipartFormError.malformed` when the body ended inside a part or
        ///   without its closing delimiter.
        func finish() throws(MultipartFormError) -> MultipartForm {
            guard collector.isBetweenParts, endsWithClosingBoundary() else { throw .malformed }
            return MultipartForm(fields: collector.fields, files: collector.files, refusal: collector.refusal)
        }

        /// Whether the body ends with the closing delimiter and at most some line breaks
        /// and spaces.
        private func endsWithClosingBoundary() -> Bool {
            let bytes = tail.readableBytesView
            let whitespace: Set<UInt8> = [0x0D, 0x0A, 0x20, 0x09]
            var end = bytes.endIndex
            while end > bytes.startIndex, whitespace.contains(bytes[end - 1]) { end -= 1 }
            return bytes[bytes.startIndex ..< end].reversed().starts(with: closing.reversed())
        }
    }

    /// The parts of a body as the parser reports them, with the limits applied. The
    /// parser calls it synchronously, inside `Reader.consume`.
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
