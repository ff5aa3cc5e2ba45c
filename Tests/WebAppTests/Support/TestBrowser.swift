import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting

/// A browser as the routes see it: it keeps the session cookie the server sets, reads the
/// tab id and CSRF token from each page, and sends them with its forms, with the headers
/// a same-site browser adds (`Origin`, `Sec-Fetch-Site`).
final class TestBrowser: @unchecked Sendable {
    // @unchecked Sendable: used by one test task at a time.
    let client: any TestClientProtocol
    var cookie: String?
    var tab: String?
    var csrf: String?

    init(_ client: any TestClientProtocol) {
        self.client = client
    }

    /// A page's response: status, headers and text.
    struct Page {
        let status: HTTPResponse.Status
        let headers: HTTPFields
        let text: String

        /// The titles of the page's rows (`data-field="title"`), in order.
        var rowTitles: [String] {
            text.components(separatedBy: "data-field=\"title\">").dropFirst().compactMap { $0.components(separatedBy: "<").first }
        }
    }

    /// GETs `path` (with the browser's tab unless `path` has a query or `keepTab` is false).
    @discardableResult
    func get(_ path: String, headers extra: HTTPFields = [:]) async throws -> Page {
        var headers = extra
        if let cookie { headers[.cookie] = cookie }
        let response = try await client.execute(uri: path, method: .get, headers: headers)
        return remember(response)
    }

    /// POSTs a URL-encoded form with the browser's tab and token (unless `fields` sets them).
    @discardableResult
    func post(_ path: String, _ fields: [String: String] = [:], json: Bool = false, headers extra: HTTPFields = [:]) async throws -> Page {
        var all = ["tab": tab ?? "", "csrf": csrf ?? ""]
        for (name, value) in fields { all[name] = value }
        let body = all.map { "\(Self.encode($0.key))=\(Self.encode($0.value))" }.joined(separator: "&")
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded", .origin: "http://localhost"]
        headers[HTTPField.Name("Sec-Fetch-Site")!] = "same-origin"
        if json { headers[.accept] = "application/json" }
        if let cookie { headers[.cookie] = cookie }
        for field in extra { headers[field.name] = field.value }
        let response = try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: body))
        return remember(response)
    }

    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    private func remember(_ response: TestResponse) -> Page {
        if let setCookie = response.headers[.setCookie], let pair = setCookie.split(separator: ";").first {
            cookie = String(pair)
        }
        let text = String(buffer: response.body)
        if let tab = Self.attribute("data-tab", in: text) { self.tab = tab }
        if let csrf = Self.attribute("data-csrf", in: text) { self.csrf = csrf }
        return Page(status: response.status, headers: response.headers, text: text)
    }

    /// The value of the first `name="…"` attribute in `html`.
    static func attribute(_ name: String, in html: String) -> String? {
        guard let start = html.range(of: "\(name)=\"") else { return nil }
        guard let end = html[start.upperBound...].firstIndex(of: "\"") else { return nil }
        return String(html[start.upperBound..<end])
    }
}
