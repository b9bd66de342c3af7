import ArgumentParser
import Mnemo

struct FactCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fact",
        abstract: "Show, change, deactivate, delete or erase facts.",
        subcommands: [Show.self, Update.self, Deactivate.self, Reactivate.self, Delete.self, Erase.self]
    )

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show every field of a fact.")
        @Argument(help: "The fact id.") var id: Int64
        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let kb = try await global.openExistingKnowledgeBase()
            guard let fact = try await kb.fact(id: id) else { throw MnemoError.notFound(.fact(id)) }
            try FactCommand.show(fact, global)
        }
    }

    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change a fact's content, type, importance, confidence or topic.",
            discussion: "Example: mnemo fact update 42 --importance high --topic \"Health & Fitness/Running\"")
        @Argument(help: "The fact id.") var id: Int64
        @Option(help: "New content.") var content: String?
        @Option(help: "New type: \(FilterField.type.valueHelp.components(separatedBy: ";")[0]).") var type: String?
        @Option(help: "New importance: \(FilterField.minImportance.valueHelp).") var importance: String?
        @Option(help: "New confidence, from 0 to 1.") var confidence: Double?
        @Option(help: ArgumentHelp("Move to this topic path.", valueName: "path")) var topic: String?
        @Option(
            help: ArgumentHelp(
                "When the fact expires (ISO 8601, such as 2025-06-30T00:00:00Z), or `never`.",
                valueName: "date")) var expiresAt: String?
        @Option(help: "A goal's new status: \(FilterField.status.valueHelp.components(separatedBy: ";")[0]).")
        var status: String?
        @Option(help: "A goal's new progress, from 0 to 1.") var progress: Double?
        @Option(
            help: ArgumentHelp(
                "When a goal is due (ISO 8601, such as 2026-03-31), or `none`.", valueName: "date"))
        var targetDate: String?
        @OptionGroup var global: GlobalOptions

        /// The change, through the vocabulary every front door shares.
        func edit() throws -> FactEdit {
            var edit = FactEdit()
            do {
                if let content { try edit.setContent(content) }
                if let type { try edit.setType(type) }
                if let importance { try edit.setImportance(importance) }
                if let confidence { try edit.setConfidence(confidence) }
                if let topic { try edit.setTopic(topic) }
                if let expiresAt { try edit.setExpiresAt(expiresAt == "never" ? nil : expiresAt) }
                if let status { try edit.setStatus(status) }
                if let progress { try edit.setProgress(progress) }
                if let targetDate { try edit.setTargetDate(targetDate == "none" ? nil : targetDate) }
            } catch {
                throw ValidationError(error.message)
            }
            guard !edit.isEmpty else {
                throw ValidationError(
                    "nothing to change: pass --content, --type, --importance, --confidence, --topic, --expires-at, --status, --progress or --target-date"
                )
            }
            return edit
        }

        func validate() throws {
            _ = try edit()
        }

        func run() async throws {
            let update = try edit().update
            let fact: Fact
            do {
                fact = try await global.openExistingKnowledgeBase().updateFact(id: id, update)
            } catch MnemoError.conflict(.embedderMissing) {
                // A new content in a database of vectors needs its own: load the model only then.
                fact = try await global.openExistingKnowledgeBase(embedding: true).updateFact(id: id, update)
            }
            try FactCommand.show(fact, global)
        }
    }

    struct Deactivate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Hide a fact from search; it is kept and can be reactivated.")
        @Argument(help: "The fact id.") var id: Int64
        @OptionGroup var global: GlobalOptions

        func run() async throws {
            try FactCommand.show(try await global.openExistingKnowledgeBase().deactivateFact(id: id), global)
        }
    }

    struct Reactivate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a deactivated fact visible again.")
        @Argument(help: "The fact id.") var id: Int64
        @OptionGroup var global: GlobalOptions

        func run() async throws {
            try FactCommand.show(try await global.openExistingKnowledgeBase().reactivateFact(id: id), global)
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a fact: hidden from search, kept in its history, undoable.",
            discussion: """
                A deleted fact leaves search, listings and exports, but it is not forgotten: its \
                history keeps a "deleted" event with its content, and `mnemo undo` brings it back. \
                To remove a fact so that nothing of it is left, use `mnemo fact erase ID`.
                """)
        @Argument(help: "The fact id.") var id: Int64
        @OptionGroup var global: GlobalOptions

        func run() async throws {
            try await global.openExistingKnowledgeBase().deleteFact(id: id)
            if global.json {
                try Output.json(["deleted": id])
            } else {
                print("Deleted fact #\(id).")
            }
        }
    }

    struct Erase: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Erase facts for good: no content, history or undo record is left.",
            discussion: """
                Unlike `delete`, an erase cannot be undone. Each fact's content, vector, index \
                entries, history, undo records and conflict links go, and so do the facts merged \
                into it; a tombstone keeps only the id, the time and the reason, and a keyed hash \
                of each wording stops a device that held the fact from bringing it back. Nothing \
                erased is left in the database file, its -wal or its -shm. A deleted fact can be \
                erased too. All the ids are erased or none is; an id already erased is skipped.
                  mnemo fact erase 12 15
                """)
        @Argument(help: "The fact ids.") var ids: [Int64]
        @OptionGroup var global: GlobalOptions

        func validate() throws {
            if ids.isEmpty { throw ValidationError("name at least one fact id to erase") }
        }

        func run() async throws {
            let receipt = try await global.openExistingKnowledgeBase().eraseFacts(ids: ids)
            try ErasureOutput.print(receipt, global)
        }
    }

    static func show(_ fact: Fact, _ global: GlobalOptions) throws {
        if global.json {
            try Output.json(FactJSON(fact))
        } else {
            Swift.print(FactOutput.details(fact))
        }
    }
}
