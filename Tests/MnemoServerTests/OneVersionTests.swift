import Foundation
import Mnemo
import Testing

@testable import MnemoServer

/// `MnemoVersion.current` is the one version: the OpenAPI document says the
/// same (`mnemo --version` is checked by `CLITests`; the MCP server announces it by default).
@Suite struct OneVersionTests {
    @Test func theOpenAPIDocumentStatesTheOneVersion() throws {
        let document = try #require(try JSONSerialization.jsonObject(with: OpenAPIDocument.data) as? [String: Any])
        let info = try #require(document["info"] as? [String: Any])
        #expect(info["version"] as? String == MnemoVersion.current)
    }
}
