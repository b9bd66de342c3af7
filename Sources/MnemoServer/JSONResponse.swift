import Foundation
import HTTPTypes
import Hummingbird
import Mnemo

/// JSON responses with the server's conventions: snake_case keys, ISO 8601 dates in UTC.
enum JSONResponse {
    /// Encodes `value` as the body of a response with `status`.
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try encoder().encode(value)
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// Dates are whole seconds (`2024-01-15T10:30:00Z`): the apps decode with `JSONDecoder`'s
    /// `.iso8601` strategy, which refuses a fraction of a second.
    static func encoder() -> JSONEncoder {
        .mnemoOutput(pretty: false, wholeSeconds: true)
    }
}
