import Foundation

/// A bug's screenshot: the image's bytes and its format, recognised by its first bytes.
///
/// Only PNG and JPEG are accepted — never SVG, HTML or anything else a browser might run —
/// and at most `maximumSize` bytes, so that a page can serve the data back with the fixed
/// `mimeType` (and `X-Content-Type-Options: nosniff`).
public struct Screenshot: Sendable, Hashable {
    /// An accepted image format.
    public enum Format: String, Sendable, Hashable, Codable, CaseIterable {
        case png, jpeg

        /// The type to serve the image with: `image/png` or `image/jpeg`.
        public var mimeType: String {
            switch self {
            case .png: "image/png"
            case .jpeg: "image/jpeg"
            }
        }
    }

    /// The largest screenshot accepted, in bytes: 4 MiB, a full-screen PNG of a large
    /// display.
    public static let maximumSize = 4 * 1024 * 1024

    /// The image's bytes.
    public let data: Data
    /// The image's format.
    public let format: Format
    /// The type to serve the image with (`format.mimeType`).
    public var mimeType: String { format.mimeType }

    /// Checks that `data` is a PNG or a JPEG image of at most `maximumSize` bytes.
    ///
    /// A PNG starts with its 8-byte signature followed by the `IHDR` chunk; a JPEG with
    /// the start-of-image marker `FF D8` and a further marker `FF`.
    ///
    /// - Throws: `BugTrackerError.screenshotTooLarge` or `.screenshotNotAnImage`.
    public init(data: Data) throws(BugTrackerError) {
        guard data.count <= Self.maximumSize else {
            throw .screenshotTooLarge(bytes: data.count, limit: Self.maximumSize)
        }
        guard let format = Self.format(of: data) else { throw .screenshotNotAnImage }
        self.data = data
        self.format = format
    }

    /// The format `data` starts like, or nil for anything but PNG and JPEG.
    static func format(of data: Data) -> Format? {
        let bytes = [UInt8](data.prefix(16))
        if bytes.count == 16, bytes[0 ..< 8].elementsEqual(pngSignature), bytes[12 ..< 16].elementsEqual(Array("IHDR".utf8)) {
            return .png
        }
        if bytes.count >= 3, bytes[0 ..< 3].elementsEqual(jpegStart) { return .jpeg }
        return nil
    }

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    private static let jpegStart: [UInt8] = [0xFF, 0xD8, 0xFF]
}
