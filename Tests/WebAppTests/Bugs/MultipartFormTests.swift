import Foundation
import NIOCore
import Testing
@testable import WebApp

/// The tracker's multipart forms are read with limits, and anything malformed is refused
/// with a typed error (and so a 4xx), never a trap.
@Suite struct MultipartFormTests {
    /// The body delivered in chunks of `chunkSize` bytes, as a socket would.
    static func chunks(_ data: Data, size chunkSize: Int = 1 << 16) -> AsyncStream<ByteBuffer> {
        AsyncStream { continuation in
            var start = data.startIndex
            while start < data.endIndex {
                let end = min(start + chunkSize, data.endIndex)
                continuation.yield(ByteBuffer(bytes: data[start ..< end]))
                start = end
            }
            continuation.finish()
        }
    }

    static func read(_ data: Data, contentType: String? = MultipartBody([]).contentType, chunkSize: Int = 1 << 16,
                     limits: MultipartForm.Limits = .standard) async throws -> MultipartForm {
        try await MultipartForm.read(chunks(data, size: chunkSize), contentType: contentType,
                                     fileFields: ["screenshot"], limits: limits)
    }

    static let form = MultipartBody([
        .field("title", "Crash on save"),
        .field("details", "Open a file,\r\nsave: it quits."),
        .file("screenshot", filename: "shot.png", type: "image/png", Images.png),
    ])

    @Test(arguments: [1, 7, 1 << 16])
    func readsFieldsAndFilesInAnyChunking(chunkSize: Int) async throws {
        let form = try await Self.read(Self.form.data, chunkSize: chunkSize)
        #expect(form.fields == ["title": "Crash on save", "details": "Open a file,\nsave: it quits."])
        #expect(form.files == ["screenshot": Images.png])
    }

    @Test func anEmptyFileInputIsNoFile() async throws {
        let body = MultipartBody([.field("title", "T"), .file("screenshot", filename: "", type: "application/octet-stream", Data())])
        let form = try await Self.read(body.data)
        #expect(form.files.isEmpty)
        #expect(form.fields == ["title": "T"])
    }

    @Test func aFileIsJudgedLaterByItsBytesNotItsDeclaredType() async throws {
        // The form hands over the bytes; whether they are an image is BugsKit's call.
        let body = MultipartBody([.file("screenshot", filename: "shot.png", type: "image/png", Images.svg)])
        #expect(try await Self.read(body.data).files["screenshot"] == Images.svg)
    }

    @Test(arguments: [
        ("multipart/form-data; boundary=abc", "abc"),
        ("Multipart/Form-Data; charset=utf-8; boundary=\"a b'c\"", "a b'c"),
        ("multipart/form-data;boundary=----WebKitFormBoundaryX", "----WebKitFormBoundaryX"),
    ])
    func findsTheBoundary(contentType: String, boundary: String) throws {
        #expect(try MultipartForm.boundary(ofContentType: contentType) == boundary)
    }

    @Test(arguments: [
        (nil, MultipartFormError.notMultipart),
        ("application/x-www-form-urlencoded", .notMultipart),
        ("multipart/mixed; boundary=abc", .notMultipart),
        ("multipart/form-data", .badBoundary),
        ("multipart/form-data; boundary=", .badBoundary),
        ("multipart/form-data; boundary=\"\"", .badBoundary),
        ("multipart/form-data; boundary=" + String(repeating: "x", count: 71), .badBoundary),
        ("multipart/form-data; boundary=a\u{7F}b", .badBoundary),
        ("multipart/form-data; boundary=ab<c>", .badBoundary),
    ] as [(String?, MultipartFormError)])
    func refusesAContentTypeWithoutAUsableBoundary(contentType: String?, error: MultipartFormError) async {
        #expect(throws: error) { try MultipartForm.boundary(ofContentType: contentType) }
        await #expect(throws: error) { try await Self.read(Self.form.data, contentType: contentType) }
    }

    @Test func refusesABodyCutShort() async {
        let data = Self.form.data
        for cut in [10, data.count / 2, data.count - 10, data.count - 5] {
            await #expect(throws: MultipartFormError.malformed, "cut at \(cut)") {
                try await Self.read(data.prefix(cut))
            }
        }
    }

    @Test(arguments: [
        "",
        "garbage without any boundary",
        "--\(MultipartBody.boundary)\r\nNo colon here\r\n\r\nx\r\n--\(MultipartBody.boundary)--\r\n",
        "--\(MultipartBody.boundary)\r\nContent-Type: text/plain\r\n\r\nno name\r\n--\(MultipartBody.boundary)--\r\n",
        "--\(MultipartBody.boundary)\r\nContent-Disposition: form-data; name=\"a\"\r\n--\(MultipartBody.boundary)--\r\n",
        "--\(MultipartBody.boundary)\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx--\(MultipartBody.boundary)--\r\n",
        "--\(MultipartBody.boundary)X\r\n",
    ])
    func refusesAMalformedBody(body: String) async {
        await #expect(throws: MultipartFormError.malformed) { try await Self.read(Data(body.utf8)) }
    }

    @Test func leavesOutATextFieldOverItsLimitAndReadsTheRest() async throws {
        var limits = MultipartForm.Limits.standard
        limits.textField = 10
        let fits = MultipartBody([.field("title", "0123456789")])
        #expect(try await Self.read(fits.data, limits: limits) == MultipartForm(fields: ["title": "0123456789"], files: [:]))
        let over = MultipartBody([.field("tab", "t1"), .field("title", "0123456789!"), .field("csrf", "token")])
        let form = try await Self.read(over.data, chunkSize: 3, limits: limits)
        #expect(form.refusal == .fieldTooLarge(name: "title", limit: 10))
        #expect(form.fields == ["tab": "t1", "csrf": "token"])
    }

    @Test func leavesOutAFileOverFourMebibytes() async throws {
        let big = Images.png + Data(count: 4 * 1024 * 1024 + 1 - Images.png.count)
        let body = MultipartBody([.field("tab", "t1"), .file("screenshot", filename: "big.png", type: "image/png", big), .field("title", "Big")])
        let form = try await Self.read(body.data)
        #expect(form.refusal == .fileTooLarge(name: "screenshot", limit: 4 * 1024 * 1024))
        #expect(form.files.isEmpty)
        #expect(form.fields == ["tab": "t1", "title": "Big"])
        let fits = MultipartBody([.file("screenshot", filename: "ok.png", type: "image/png", big.dropLast())])
        let read = try await Self.read(fits.data)
        #expect(read.files["screenshot"]?.count == 4 * 1024 * 1024)
        #expect(read.refusal == nil)
    }

    @Test func aTextFieldCannotCarryAFileSizedValue() async throws {
        let body = MultipartBody([.file("title", filename: "x.png", type: "image/png", Data(count: 64 * 1024 + 1))])
        #expect(try await Self.read(body.data).refusal == .fieldTooLarge(name: "title", limit: 64 * 1024))
    }

    @Test func refusesABodyOverItsLimitWithoutReadingTheRest() async {
        let big = Images.png + Data(count: 5 * 1024 * 1024)
        let body = MultipartBody([.file("screenshot", filename: "big.png", type: "image/png", big)])
        let limit = 4 * 1024 * 1024 + 64 * 1024
        await #expect(throws: MultipartFormError.bodyTooLarge(limit: limit)) { try await Self.read(body.data) }
    }

    @Test func refusesABodyOverItsLimitEvenInThePreamble() async {
        var limits = MultipartForm.Limits.standard
        limits.body = 100
        let data = Data(repeating: UInt8(ascii: "x"), count: 101) + MultipartBody([.field("a", "b")]).data
        await #expect(throws: MultipartFormError.bodyTooLarge(limit: 100)) { try await Self.read(data, chunkSize: 50, limits: limits) }
    }

    @Test func refusesTooManyPartsAndDuplicates() async {
        let many = MultipartBody((0 ..< 17).map { .field("f\($0)", "x") })
        await #expect(throws: MultipartFormError.tooManyParts(limit: 16)) { try await Self.read(many.data) }
        let twice = MultipartBody([.field("title", "a"), .field("title", "b")])
        await #expect(throws: MultipartFormError.duplicateField(name: "title")) { try await Self.read(twice.data) }
    }

    @Test func refusesATextFieldThatIsNotUTF8() async {
        let body = MultipartBody([.file("title", filename: "t", type: "text/plain", Data([0x41, 0xFF, 0xFE]))])
        await #expect(throws: MultipartFormError.notText(name: "title")) { try await Self.read(body.data) }
    }

    @Test func everyRefusalIsAClientError() {
        let errors: [MultipartFormError] = [
            .notMultipart, .badBoundary, .malformed, .fieldTooLarge(name: "a", limit: 1), .fileTooLarge(name: "a", limit: 1),
            .bodyTooLarge(limit: 1), .tooManyParts(limit: 1), .duplicateField(name: "a"), .notText(name: "a"),
        ]
        for error in errors {
            #expect((400 ..< 500).contains(error.statusCode), "\(error)")
            #expect(!error.description.isEmpty)
        }
        #expect(MultipartFormError.fileTooLarge(name: "screenshot", limit: 4 << 20).description
            == "The file “screenshot” is too large (at most 4 MiB).")
        #expect(MultipartFormError.bodyTooLarge(limit: (4 << 20) + (64 << 10)).description
            == "The form is too large (at most 4.06 MiB).")
        #expect(MultipartFormError.size(300) == "300 bytes")
        #expect(MultipartFormError.size(64 << 10) == "64 KiB")
    }
}
