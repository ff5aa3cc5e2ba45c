import HTTPTypes

/// Header names HTTPTypes does not spell out. Each literal is a valid field name, so the
/// initializer cannot fail.
extension HTTPField.Name {
    static let xFrameOptions = HTTPField.Name("X-Frame-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!
    static let lastEventID = HTTPField.Name("Last-Event-ID")!
}
