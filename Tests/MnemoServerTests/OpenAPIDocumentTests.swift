import Foundation
import Hummingbird
import Testing

@testable import MnemoServer

@Suite struct OpenAPIDocumentTests {
    /// `METHOD /path` for every operation of the document.
    private func documentedRoutes() throws -> Set<String> {
        let document = try #require(try JSONSerialization.jsonObject(with: OpenAPIDocument.data) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var routes: Set<String> = []
        for (path, operations) in paths {
            for method in operations.keys
            where ["get", "put", "post", "patch", "delete", "head", "options"].contains(method) {
                routes.insert("\(method.uppercased()) \(path)")
            }
        }
        return routes
    }

    /// `METHOD /path` for every route of the JSON API: the memory page's `/ui` routes answer
    /// HTML to a browser and are not part of it (`PageRouteTests` checks them).
    private func routedRoutes() async throws -> Set<String> {
        let fixture = try await ServerFixture()
        return Set(
            fixture.server.router().routes.compactMap { route in
                let path = route.path.description
                let absolute = path.hasPrefix("/") ? path : "/" + path
                guard absolute != "/ui", !absolute.hasPrefix("/ui/") else { return nil }
                return "\(route.method.rawValue) \(absolute)"
            })
    }

    @Test func everyRouteIsDocumentedAndEveryDocumentedPathIsRouted() async throws {
        let documented = try documentedRoutes()
        let routed = try await routedRoutes()
        #expect(routed.count == 26)
        #expect(
            routed.subtracting(documented).isEmpty,
            "routed but not in openapi.json: \(routed.subtracting(documented).sorted())")
        #expect(
            documented.subtracting(routed).isEmpty,
            "in openapi.json but not routed: \(documented.subtracting(routed).sorted())")
    }

    @Test func theDocumentIsOpenAPI31WithResolvableReferences() throws {
        let text = String(decoding: OpenAPIDocument.data, as: UTF8.self)
        let document = try #require(try JSONSerialization.jsonObject(with: OpenAPIDocument.data) as? [String: Any])
        #expect(document["openapi"] as? String == "3.1.0")
        let components = try #require(document["components"] as? [String: [String: Any]])
        let references = try NSRegularExpression(pattern: ##""\$ref": "#/components/([a-zA-Z]+)/([a-zA-Z]+)""##)
        let matches = references.matches(in: text, range: NSRange(text.startIndex..., in: text))
        #expect(!matches.isEmpty)
        for match in matches {
            let section = String(text[Range(match.range(at: 1), in: text)!])
            let name = String(text[Range(match.range(at: 2), in: text)!])
            #expect(components[section]?[name] != nil, "unresolved $ref \(section)/\(name)")
        }
    }
}
