import Foundation

extension MultipartForm {
    /// The characters RFC 2046 allows in a boundary (`bchars`); it may not end with a space.
    private static let boundaryCharacters = Set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'()+_,-./:=? ".utf8)

    /// The boundary a `multipart/form-data` content type declares.
    ///
    /// ```swift
    /// try MultipartForm.boundary(ofContentType: "multipart/form-data; boundary=----WebKitFormBoundaryX")
    /// // "----WebKitFormBoundaryX"
    /// ```
    ///
    /// The type is matched without regard to case; other parameters (`charset`) are
    /// ignored; the boundary may be quoted.
    ///
    /// - Throws: `MultipartFormError.notMultipart` for another type (or none),
    ///   `.badBoundary` when the boundary is missing, empty, longer than 70 characters, or
    ///   has characters RFC 2046 does not allow.
    static func boundary(ofContentType contentType: String?) throws(MultipartFormError) -> String {
        guard let contentType else { throw .notMultipart }
        let pieces = contentType.split(separator: ";", omittingEmptySubsequences: false)
        guard let type = pieces.first, type.trimmingCharacters(in: .whitespaces).lowercased() == "multipart/form-data" else {
            throw .notMultipart
        }
        for parameter in pieces.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "boundary" else { continue }
            var value = pair[1].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            guard (1 ... 70).contains(value.utf8.count), value.utf8.allSatisfy(boundaryCharacters.contains),
                  value.last != " " else {
                throw .badBoundary
            }
            return value
        }
        throw .badBoundary
    }
}
