import Foundation
import MnemoExamples
import MnemoTestSupport
import Testing

@testable import Mnemo

/// The Swift code of the README and the DocC articles is the code of `Examples/`, compiled
/// with the package and run here; these tests also check that each document quotes it exactly.
@Suite("Documentation examples")
struct ExamplesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The documents that must hold ```swift blocks (so that a broken parser cannot pass).
    static let documentsWithExamples = [
        "README.md", "Sources/Mnemo/Mnemo.docc/Mnemo.md", "Sources/Mnemo/Mnemo.docc/GettingStarted.md",
        "Sources/Mnemo/Mnemo.docc/Ingestion.md",
    ]

    /// The documents whose ```swift blocks must each be an example of `Examples/`: the README and
    /// every article of every DocC catalog under `Sources/`.
    static let documents: [String] = {
        let articles = sourceFiles().filter { $0.hasSuffix(".md") && $0.contains(".docc/") }
        return Array(Set(documentsWithExamples + articles)).sorted()
    }()

    /// The paths, from the repository root, of every file under `Sources/`.
    static func sourceFiles() -> [String] {
        let sources = root.appendingPathComponent("Sources")
        guard let enumerator = FileManager.default.enumerator(atPath: sources.path) else { return [] }
        return enumerator.compactMap { ($0 as? String).map { "Sources/" + $0 } }.sorted()
    }

    /// Every `// example: NAME` … `// end example` region of `Examples/`, dedented, by name.
    static func examples() throws -> [String: String] {
        let folder = root.appendingPathComponent("Examples")
        var regions: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".swift") {
            let lines = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            var current: (name: String, lines: [String])?
            for line in lines {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("// example: ") {
                    current = (String(trimmed.dropFirst("// example: ".count)), [])
                } else if trimmed == "// end example", let region = current {
                    regions[region.name] = dedented(region.lines)
                    current = nil
                } else {
                    current?.lines.append(line)
                }
            }
        }
        return regions
    }

    static func dedented(_ lines: [String]) -> String {
        let indent =
            lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map { $0.prefix(while: { $0 == " " }).count }.min() ?? 0
        return lines.map { String($0.dropFirst(min(indent, $0.prefix(while: { $0 == " " }).count))) }
            .joined(separator: "\n")
    }

    /// The ```swift blocks of a Markdown document.
    static func swiftBlocks(_ text: String) -> [String] {
        var blocks: [String] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
                current = []
            } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// The text of a Swift file's doc comments (`///`), each line in place, other lines empty.
    static func docCommentText(_ source: String) -> String {
        source.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("///") else { return "" }
            let text = trimmed.dropFirst(3)
            return String(text.hasPrefix(" ") ? text.dropFirst() : text)
        }.joined(separator: "\n")
    }

    @Test(arguments: documents)
    func everySwiftBlockIsACompiledExample(_ document: String) throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
        let examples = Set(try Self.examples().values)
        let blocks = Self.swiftBlocks(text)
        if Self.documentsWithExamples.contains(document) { #expect(!blocks.isEmpty) }
        for block in blocks {
            #expect(examples.contains(block), "\(document) quotes Swift that is not an example of Examples/:\n\(block)")
        }
    }

    /// "Code blocks in doc comments compile like the README's": every ```swift block of a doc
    /// comment under `Sources/` is an example of `Examples/` (`DocCommentExamples`), quoted exactly.
    @Test func everyDocCommentSwiftBlockIsACompiledExample() throws {
        let examples = Set(try Self.examples().values)
        var checked = 0
        for file in Self.sourceFiles() where file.hasSuffix(".swift") {
            let source = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
            for block in Self.swiftBlocks(Self.docCommentText(source)) {
                checked += 1
                #expect(examples.contains(block), "\(file) quotes Swift that is not an example of Examples/:\n\(block)")
            }
        }
        #expect(checked >= 10, "the doc comments' code blocks were not found")
    }

    @Test func theGettingStartedExampleRuns() async throws {
        let folder = try TestKnowledgeBase.temporaryFolder()
        try await GettingStarted.run(in: folder)
        let kb = try KnowledgeBase(
            url: folder.appendingPathComponent("memory.sqlite"),
            configuration: .init(namespace: "user-42"))
        #expect(try await kb.topic(at: "Health and Fitness") == nil) // merged into "Health & Fitness"
        #expect(try await kb.facts(matching: FactFilter(topicPath: "Health & Fitness")).count == 1)
        #expect(try await kb.stats().facts == 2)
    }

    @Test func theFrontPageExampleRuns() async throws {
        let folder = try TestKnowledgeBase.temporaryFolder()
        try await GettingStarted.frontPage(in: folder)
        let kb = try KnowledgeBase(
            url: folder.appendingPathComponent("memory.sqlite"),
            configuration: .init(namespace: "user-42"))
        #expect(try await kb.stats().facts == 1)
    }

    /// The README's example opens the file on the next start whether the model came or went:
    /// vectors of another model are rebuilt with the embedder of this start.
    @Test func theFrontPageExampleSurvivesAModelChangeBetweenStarts() async throws {
        let folder = try TestKnowledgeBase.temporaryFolder()
        let url = folder.appendingPathComponent("memory.sqlite")
        let earlier = try KnowledgeBase(
            url: url, configuration: .init(namespace: "user-42", embedder: SeededEmbedder(name: "earlier-model")))
        try await earlier.addFact(NewFact(content: "Lives in Porto", topicPath: "Home"))
        try await GettingStarted.frontPage(in: folder)
        try await GettingStarted.frontPage(in: folder)
        let kb = try KnowledgeBase(url: url, configuration: .init(namespace: "user-42"))
        #expect(try await kb.stats().facts == 2)
        #expect(try await kb.check().isClean)
        let stored = try await kb.writer.read { db in try EmbeddingTable.storedIdentity(db) }
        #expect(stored != SeededEmbedder(name: "earlier-model").identity)
    }

    @Test func theIngestionExamplesRun() async throws {
        let folder = try TestKnowledgeBase.temporaryFolder()
        let url = folder.appendingPathComponent("facts.jsonl")
        try Data(
            """
            {"topic": "Food", "content": "Likes tea"}
            {"topic": "Food", "content": "Likes coffee", "type": "opinion"}
            """.utf8
        ).write(to: url)
        let kb = try KnowledgeBase.inMemory()
        try await IngestionExamples.run(kb: kb, url: url, backupURL: folder.appendingPathComponent("backup.jsonl"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("backup.jsonl").path))
        try await IngestionExamples.article(kb: kb, folder: folder)
        #expect(try await kb.stats().facts == 1)
    }

    @Test func theOverviewExampleRuns() async throws {
        try await OverviewExample.run(in: TestKnowledgeBase.temporaryFolder())
    }
}
