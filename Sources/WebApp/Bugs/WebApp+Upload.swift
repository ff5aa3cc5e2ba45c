import Hummingbird

extension WebApp {
    /// Runs the action of a `multipart/form-data` form (one with a file) as `act` runs a
    /// plain form's: the body is read by `MultipartForm` within
    /// `configuration.maxUploadSize`, and the form is checked (origin, token) before the
    /// action.
    ///
    /// A body that cannot be read — not multipart, malformed, cut short, over the upload
    /// limit (as its `Content-Length` says, or as it arrives) — is refused with its 4xx
    /// before anything else (the error page says why). A
    /// field or file over its own limit was left out while the rest was read, so the form
    /// still names its tab and page: the answer is that page with the message and a 413,
    /// and nothing changes.
    func actOnUpload(
        _ request: Request, _ context: WebRequestContext, fallback: String, fileFields: Set<String>,
        _ action: @escaping @Sendable (Tab.Editor, Form) throws -> Void
    ) async throws -> Response {
        var limits = MultipartForm.Limits.standard
        limits.body = configuration.maxUploadSize
        // A body that says it is too large is refused before a byte of it is read.
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limits.body {
            throw WebError(MultipartFormError.bodyTooLarge(limit: limits.body))
        }
        let upload: MultipartForm
        do {
            upload = try await MultipartForm.read(request.body, contentType: request.headers[.contentType], fileFields: fileFields, limits: limits)
        } catch let error as MultipartFormError {
            throw WebError(error)
        }
        let form = Form(fields: upload.fields, files: upload.files)
        if let refusal = upload.refusal {
            return try await act(request, context, fallback: fallback, form: form) { _, _ in throw WebError(refusal) }
        }
        return try await act(request, context, fallback: fallback, form: form, action)
    }
}

extension WebError {
    /// The page's words for a multipart form that was refused.
    init(_ error: MultipartFormError) {
        self.init(status: HTTPResponse.Status(code: error.statusCode), message: error.description)
    }
}
