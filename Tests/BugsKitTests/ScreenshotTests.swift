import BugsKit
import Foundation
import Testing

/// Screenshots are accepted by their first bytes: PNG and JPEG only, at most 4 MiB.
@Suite struct ScreenshotTests {
    /// The smallest real images: a 1×1 PNG and the start of a JPEG (JFIF) file.
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
                           0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
                           0x89, 0x00, 0x00, 0x00, 0x0A, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00,
                           0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE,
                           0x42, 0x60, 0x82])
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01,
                            0x00, 0x01, 0x00, 0x00, 0xFF, 0xD9])

    @Test func acceptsPNGAndJPEGWithTheirFixedType() throws {
        let png = try Screenshot(data: Self.png)
        #expect(png.format == .png)
        #expect(png.mimeType == "image/png")
        #expect(png.data == Self.png)
        let jpeg = try Screenshot(data: Self.jpeg)
        #expect(jpeg.format == .jpeg)
        #expect(jpeg.mimeType == "image/jpeg")
    }

    @Test(arguments: [
        Data("<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>".utf8),
        Data("<!DOCTYPE html><html><body>hi</body></html>".utf8),
        Data("GIF89a\u{01}\u{00}\u{01}\u{00}".utf8),
        Data(),
        Data([0x89, 0x50, 0x4E, 0x47]),                                  // a PNG signature cut short
        Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("<html><body>x</body>".utf8)),  // no IHDR
        Data([0xFF, 0xD8]),                                              // a JPEG start cut short
        Data(" \u{89}PNG\r\n\u{1A}\n".utf8),                             // the signature, but not first
    ])
    func refusesAnythingElse(data: Data) {
        #expect(throws: BugTrackerError.screenshotNotAnImage) { try Screenshot(data: data) }
    }

    @Test func refusesAnImageOverTheLimit() throws {
        var big = Self.png
        big.append(Data(count: Screenshot.maximumSize - big.count))
        #expect(try Screenshot(data: big).data.count == Screenshot.maximumSize)
        big.append(0)
        #expect(throws: BugTrackerError.screenshotTooLarge(bytes: Screenshot.maximumSize + 1, limit: Screenshot.maximumSize)) {
            try Screenshot(data: big)
        }
    }
}
