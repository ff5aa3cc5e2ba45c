import Foundation
import NIOCore

/// A `multipart/form-data` body as a browser sends it, for the tests: text fields and
/// files, with a fixed boundary.
struct MultipartBody {
    /// One part: a text field, or a file with a name and a declared type.
    enum Part {
        case field(String, String)
        case file(String, filename: String, type: String, Data)
    }

    static let boundary = "----OCDTestBoundary7MA4YWxkTrZu0gW"
    var parts: [Part]

    init(_ parts: [Part]) { self.parts = parts }

    /// The request's `Content-Type`.
    var contentType: String { "multipart/form-data; boundary=\(Self.boundary)" }

    /// The body's bytes, ending with the closing boundary and a line break.
    var data: Data {
        var data = Data()
        for part in parts {
            data.append(Data("--\(Self.boundary)\r\n".utf8))
            switch part {
            case .field(let name, let value):
                data.append(Data("Content-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8))
            case .file(let name, let filename, let type, let bytes):
                data.append(Data("Content-Disposition: form-data; name=\"\(name)\"; filename=\"\(filename)\"\r\nContent-Type: \(type)\r\n\r\n".utf8))
                data.append(bytes)
                data.append(Data("\r\n".utf8))
            }
        }
        data.append(Data("--\(Self.boundary)--\r\n".utf8))
        return data
    }

    var buffer: ByteBuffer { ByteBuffer(bytes: data) }
}

/// Small real images, and files that only claim to be images.
enum Images {
    /// A 1×1 PNG.
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
                           0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
                           0x89, 0x00, 0x00, 0x00, 0x0A, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00,
                           0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE,
                           0x42, 0x60, 0x82])
    /// The start of a JPEG (JFIF) file.
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01,
                            0x00, 0x01, 0x00, 0x00, 0xFF, 0xD9])
    /// An SVG with a script, which a browser would run if it were served as an image.
    static let svg = Data("<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(document.cookie)</script></svg>".utf8)
    /// An HTML page.
    static let html = Data("<!DOCTYPE html><html><body><script>alert(1)</script></body></html>".utf8)
}
