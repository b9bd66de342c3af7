/// An error as the HTTP server answers it: `{"error": {"code", "message", "rejected"?}}`, with
/// the refused records (their position and ingest reason code) when facts were refused.
package struct ErrorJSON: Encodable, Sendable {
    package struct Detail: Encodable, Sendable {
        var code: String
        var message: String
        var rejected: [IngestRejection]?
    }

    var error: Detail

    package init(code: String, message: String, rejected: [IngestRejection]? = nil) {
        error = Detail(code: code, message: message, rejected: rejected)
    }
}
