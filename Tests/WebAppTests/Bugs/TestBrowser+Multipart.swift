import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting

extension TestBrowser {
    /// POSTs a `multipart/form-data` form — a bug's, with its screenshot — with the
    /// browser's tab and token first (unless `parts` has them), as a page's form sends it.
    /// `contentType` replaces the body's own (to send a broken one); `body` replaces the
    /// bytes (to send a malformed one).
    @discardableResult
    func postMultipart(
        _ path: String, _ parts: [MultipartBody.Part], json: Bool = false,
        contentType: String? = nil, body: Data? = nil
    ) async throws -> Page {
        let names = Set(parts.map(\.name))
        let hidden: [MultipartBody.Part] = [("tab", tab ?? ""), ("csrf", csrf ?? "")].filter { !names.contains($0.0) }.map { .field($0.0, $0.1) }
        let form = MultipartBody(hidden + parts)
        var headers: HTTPFields = [.contentType: contentType ?? form.contentType, .origin: "http://localhost"]
        headers[HTTPField.Name("Sec-Fetch-Site")!] = "same-origin"
        if json { headers[.accept] = "application/json" }
        if let cookie { headers[.cookie] = cookie }
        let response = try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(bytes: body ?? form.data))
        return Page(status: response.status, headers: response.headers, text: String(buffer: response.body))
    }
}

extension MultipartBody.Part {
    /// The part's field name.
    var name: String {
        switch self {
        case .field(let name, _), .file(let name, _, _, _): name
        }
    }
}
