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
        #expect(routed.count == 27)
        #expect(
            routed.subtracting(documented).isEmpty,
            "routed but not in openapi.json: \(routed.subtracting(documented).sorted())")
        #expect(
            documented.subtracting(routed).isEmpty,
            "in openapi.json but not routed: \(documented.subtracting(routed).sorted())")
    }

    /// The request bodies are decoded with `decodeIfPresent`, which reads `null` as an absent
    /// field; a schema that refused `null` would call a request invalid that the server answers.
    @Test func everyOptionalRequestFieldAdmitsNull() throws {
        let document = try #require(try JSONSerialization.jsonObject(with: OpenAPIDocument.data) as? [String: Any])
        let components = try #require(document["components"] as? [String: Any])
        let schemas = try #require(components["schemas"] as? [String: [String: Any]])
        func resolved(_ schema: [String: Any]) -> [String: Any] {
            guard let reference = schema["$ref"] as? String else { return schema }
            return schemas[String(reference.split(separator: "/").last!)] ?? [:]
        }
        func admitsNull(_ schema: [String: Any]) -> Bool {
            let schema = resolved(schema)
            if let type = schema["type"] as? String { return type == "null" }
            if let types = schema["type"] as? [String], types.contains("null") { return true }
            let alternatives = (schema["oneOf"] ?? schema["anyOf"]) as? [[String: Any]] ?? []
            return alternatives.contains(where: admitsNull)
        }
        let paths = try #require(document["paths"] as? [String: [String: [String: Any]]])
        var checked = 0
        for (path, operations) in paths {
            for (method, operation) in operations {
                guard let body = operation["requestBody"] as? [String: Any],
                    let content = body["content"] as? [String: [String: Any]],
                    let schema = content["application/json"]?["schema"] as? [String: Any]
                else { continue }
                let object = resolved(schema)
                let required = Set(object["required"] as? [String] ?? [])
                for (name, property) in object["properties"] as? [String: [String: Any]] ?? [:]
                where !required.contains(name) {
                    checked += 1
                    let admits = admitsNull(property)
                    #expect(admits, "\(method.uppercased()) \(path): \(name) does not admit null")
                }
            }
        }
        #expect(checked > 20)
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
