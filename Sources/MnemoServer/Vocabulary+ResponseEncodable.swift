import Hummingbird
import Mnemo

// The shared JSON vocabulary, answered through the request context's `responseEncoder`, or
// written by `JSONOutput` in the same text for the answers served most.
extension FactJSON: WrittenJSONResponse {}
extension SearchResultsJSON: WrittenJSONResponse {}
extension TopicNodeJSON: ResponseEncodable {}
extension TopicDetailJSON: ResponseEncodable {}
extension KnowledgeBaseStats: ResponseEncodable {}
extension TopicMergeReport: ResponseEncodable {}
extension ErrorJSON: ResponseEncodable {}
extension ErasureReceipt: ResponseEncodable {}
extension ChangePageJSON: ResponseEncodable {}

/// An answer written by ``JSONOutput``: the text the request context's `responseEncoder` would
/// write for it (a test compares them), at a fraction of the cost.
package protocol WrittenJSONResponse: ResponseGenerator, JSONObjectWritable {}

extension WrittenJSONResponse {
    package func response(from request: Request, context: some RequestContext) throws -> Response {
        let bytes = try JSONOutput.bytes(of: self, wholeSeconds: MnemoRequestContext.datesInWholeSeconds)
        return Response(
            status: .ok,
            headers: [.contentType: "application/json; charset=utf-8", .contentLength: String(bytes.count)],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
