/// Why a `multipart/form-data` body was refused, before anything of it was used.
///
/// Every case is the client's fault, so every case answers with a 4xx: 415 for a body that
/// is not multipart at all, 413 for a field, a file or a body over its limit, 400 for the
/// rest. The message names the field, never the bytes. A field or a file over its limit
/// does not stop the reading: it is the form's `refusal` (see `MultipartForm`).
enum MultipartFormError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The request's `Content-Type` is not `multipart/form-data`.
    case notMultipart
    /// The `boundary` parameter is missing, empty, over 70 characters or has characters
    /// RFC 2046 does not allow.
    case badBoundary
    /// The body does not follow the multipart syntax (a bad header line, a part without a
    /// `name`), or ends before its closing boundary.
    case malformed
    /// A text field is larger than `limit` bytes.
    case fieldTooLarge(name: String, limit: Int)
    /// A file is larger than `limit` bytes.
    case fileTooLarge(name: String, limit: Int)
    /// The whole body is larger than `limit` bytes.
    case bodyTooLarge(limit: Int)
    /// The body has more than `limit` parts.
    case tooManyParts(limit: Int)
    /// A field was sent twice.
    case duplicateField(name: String)
    /// A text field is not UTF-8.
    case notText(name: String)

    /// The HTTP status the refusal is answered with.
    var statusCode: Int {
        switch self {
        case .notMultipart: 415
        case .fieldTooLarge, .fileTooLarge, .bodyTooLarge: 413
        case .badBoundary, .malformed, .tooManyParts, .duplicateField, .notText: 400
        }
    }

    var description: String {
        switch self {
        case .notMultipart:
            "The form was not sent as multipart/form-data."
        case .badBoundary:
            "The form's multipart boundary is missing or invalid."
        case .malformed:
            "The form could not be read: its multipart body is malformed or incomplete."
        case .fieldTooLarge(let name, let limit):
            "The field “\(name)” is too large (at most \(Self.size(limit)))."
        case .fileTooLarge(let name, let limit):
            "The file “\(name)” is too large (at most \(Self.size(limit)))."
        case .bodyTooLarge(let limit):
            "The form is too large (at most \(Self.size(limit)))."
        case .tooManyParts(let limit):
            "The form has too many fields (at most \(limit))."
        case .duplicateField(let name):
            "The form has the field “\(name)” more than once."
        case .notText(let name):
            "The field “\(name)” is not UTF-8 text."
        }
    }

    /// A byte count for people: `4 MiB`, `4.06 MiB`, `64 KiB`, `300 bytes`.
    static func size(_ bytes: Int) -> String {
        func amount(_ unit: Int, _ name: String) -> String {
            bytes % unit == 0 ? "\(bytes / unit) \(name)" : "\((Double(bytes) / Double(unit) * 100).rounded(.down) / 100) \(name)"
        }
        if bytes >= 1 << 20 { return amount(1 << 20, "MiB") }
        if bytes >= 1 << 10 { return amount(1 << 10, "KiB") }
        return "\(bytes) bytes"
    }
}
