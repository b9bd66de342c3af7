import Foundation
import Hummingbird

/// The OpenAPI 3.1 description of every route, `openapi.json` in this target's resources.
package enum OpenAPIDocument {
    /// The document's bytes; a test checks that its paths and the router's routes agree.
    package static let data: Data = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json"),
            let data = try? Data(contentsOf: url)
        else {
            preconditionFailure("openapi.json is missing from the MnemoServer resources")
        }
        return data
    }()

    static func response() -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
