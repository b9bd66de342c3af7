import MCP
import Mnemo

/// The tools `mnemo mcp` offers, with JSON schemas and descriptions written for an assistant.
enum MemoryTools {
    static let search = "search_memory"
    static let context = "memory_context"
    static let remember = "remember_fact"
    static let update = "update_fact"
    static let forget = "forget_fact"
    static let erase = "forget"
    static let showTopic = "show_topic"
    static let listTopics = "list_topics"
    static let stats = "memory_stats"

    // The values the shared vocabulary takes, from the library's enums.
    private static let types = Value.array(FactType.allCases.map { .string($0.rawValue) })
    private static let statuses = Value.array(GoalStatus.allCases.map { .string($0.rawValue) })
    private static let importances = Value.array(Importance.allCases.reversed().map { .string($0.rawValue) })
    private static let modes = Value.array(SearchMode.allCases.map { .string($0.rawValue) })

    /// `since` and `until`, the dates stated that a search or a context keeps.
    private static let statedTimeProperties: [String: Value] = [
        "since": [
            "type": "string",
            "description": .string("Only facts stated at or after this: \(FilterField.since.valueHelp)."),
        ],
        "until": [
            "type": "string",
            "description": "Only facts stated before this (a day, month or year given is included whole).",
        ],
    ]

    /// The largest `limit` of a search.
    static let maximumSearchLimit = 50

    /// The argument names a tool's schema declares.
    static func argumentNames(of tool: String) -> [String]? {
        guard let schema = all.first(where: { $0.name == tool })?.inputSchema,
            case .object(let properties)? = schema.objectValue?["properties"]
        else { return nil }
        return properties.keys.sorted()
    }

    static let all: [Tool] = [
        Tool(
            name: context,
            title: "Recall memory for this turn",
            description: """
                Call this at the start of every turn, with the user's message: it returns what you remember \
                that matters for answering it, as Markdown ready to read, within a token budget. It holds the \
                user's always-relevant facts, the facts that answer the message, and recent ones; an experience \
                says the date it was stated and a goal where it stands, and two facts that disagree come \
                together, newer first. nothing_relevant true means the memory holds nothing that answers the message.
                """,
            inputSchema: [
                "type": "object",
                "properties": .object(
                    [
                        "message": ["type": "string", "description": "The user's message you are about to answer."],
                        "budget": [
                            "type": "integer", "minimum": 0, "maximum": .int(ContextBudget.maximum),
                            "description": .string(
                                "The most tokens the memory may take (default \(ContextBudget.default))."),
                        ],
                        "topic": ["type": "string", "description": "Only facts in this topic or below it, by path."],
                    ].merging(statedTimeProperties) { own, _ in own }),
                "required": ["message"],
                "additionalProperties": false,
            ],
            annotations: .init(title: "Recall memory for this turn", readOnlyHint: true, openWorldHint: false)),
        Tool(
            name: search,
            title: "Search memory",
            description: """
                Search what you remember about the user, by words and by meaning. Use it before answering \
                anything that depends on the user's preferences, history, goals or circumstances. Returns \
                the best facts with their id, topic, type, importance and score; use the ids with \
                update_fact or forget_fact.
                """,
            inputSchema: [
                "type": "object",
                "properties": .object(
                    [
                        "query": [
                            "type": "string",
                            "description": "What to look for, in plain words: \"favourite programming language\".",
                        ],
                        "mode": [
                            "type": "string", "enum": modes,
                            "description":
                                "hybrid (default) combines words and meaning; text matches words only; semantic matches meaning only.",
                        ],
                        "types": [
                            "type": "array", "items": ["type": "string", "enum": types],
                            "description": "Only facts of these types.",
                        ],
                        "importance": [
                            "type": "array", "items": ["type": "string", "enum": importances],
                            "description": "Only facts of these importances.",
                        ],
                        "min_importance": [
                            "type": "string", "enum": importances, "description": "Only facts at least this important.",
                        ],
                        "status": [
                            "type": "array", "items": ["type": "string", "enum": statuses],
                            "description": "Only goals with these statuses (active: the aims being pursued).",
                        ],
                        "topic": [
                            "type": "string",
                            "description": "Only facts in this topic or below it, by path: \"Health & Fitness\".",
                        ],
                        "limit": [
                            "type": "integer", "minimum": 1, "maximum": 50,
                            "description": "How many facts to return (default 10).",
                        ],
                        "min_similarity": [
                            "type": "number", "minimum": -1, "maximum": 1,
                            "description":
                                "Drop semantic matches below this cosine similarity (0.3 is loose, 0.6 strict).",
                        ],
                        "include_inactive": [
                            "type": "boolean", "description": "Also return forgotten (deactivated) facts.",
                        ],
                    ].merging(statedTimeProperties) { own, _ in own }),
                "required": ["query"],
                "additionalProperties": false,
            ],
            annotations: .init(title: "Search memory", readOnlyHint: true, openWorldHint: false)),
        Tool(
            name: remember,
            title: "Remember a fact",
            description: """
                Remember one durable fact about the user: a stable preference, a goal, something about \
                their life or work. State it as a short, self-contained sentence in the third person \
                ("Prefers tea to coffee"). A fact already remembered is not stored twice: the answer says \
                whether it was added, merged into a similar fact, or already known.
                """,
            inputSchema: [
                "type": "object",
                "properties": [
                    "content": ["type": "string", "maxLength": 4096, "description": "The fact, one sentence."],
                    "topic": [
                        "type": "string",
                        "description":
                            "Where it belongs in the topic tree, as a path: \"Technology/iOS Development\". Missing topics are created; list_topics shows the existing ones.",
                    ],
                    "type": [
                        "type": "string", "enum": types,
                        "description": "fact (default), preference, goal or experience.",
                    ],
                    "importance": [
                        "type": "string", "enum": importances, "description": "How much it matters (default medium).",
                    ],
                    "confidence": [
                        "type": "number", "minimum": 0, "maximum": 1,
                        "description": "How sure you are, 0 to 1 (default 1).",
                    ],
                    "source": ["type": "string", "description": "Where it came from, such as a conversation id."],
                ],
                "required": ["content"],
                "additionalProperties": false,
            ],
            annotations: .init(
                title: "Remember a fact", readOnlyHint: false, destructiveHint: false, idempotentHint: true,
                openWorldHint: false)),
        Tool(
            name: update,
            title: "Correct a fact",
            description: """
                Correct a remembered fact when the user says it changed or was wrong. Give the fact's id \
                (from search_memory) and only the fields to change. For a goal, record where it stands: \
                status (completed when reached), progress (0 to 1) and target_date. Every change is kept \
                in the fact's history.
                """,
            inputSchema: [
                "type": "object",
                "properties": [
                    "id": ["type": "integer", "description": "The fact's id."],
                    "content": ["type": "string", "maxLength": 4096, "description": "The new wording."],
                    "topic": ["type": "string", "description": "Move it to this topic path."],
                    "type": ["type": "string", "enum": types],
                    "importance": ["type": "string", "enum": importances],
                    "confidence": ["type": "number", "minimum": 0, "maximum": 1],
                    "status": ["type": "string", "enum": statuses, "description": "A goal's status (goals only)."],
                    "progress": [
                        "type": "number", "minimum": 0, "maximum": 1, "description": "A goal's progress (goals only).",
                    ],
                    "target_date": [
                        "type": "string",
                        "description": "When a goal is due, ISO 8601 such as 2026-03-31 (goals only).",
                    ],
                ],
                "required": ["id"],
                "additionalProperties": false,
            ],
            annotations: .init(
                title: "Correct a fact", readOnlyHint: false, destructiveHint: false, idempotentHint: true,
                openWorldHint: false)),
        Tool(
            name: forget,
            title: "Forget a fact",
            description: """
                Set aside a fact that is no longer true. It is deactivated: hidden from search, but kept \
                so the user can restore it. When the user asks you to forget something for good (to \
                erase it, delete their data), use the forget tool instead.
                """,
            inputSchema: [
                "type": "object",
                "properties": ["id": ["type": "integer", "description": "The fact's id (from search_memory)."]],
                "required": ["id"],
                "additionalProperties": false,
            ],
            annotations: .init(
                title: "Forget a fact", readOnlyHint: false, destructiveHint: true, idempotentHint: true,
                openWorldHint: false)),
        Tool(
            name: erase,
            title: "Erase memories for good",
            description: """
                Erase facts for good when the user asks you to forget something completely: nothing of them \
                is kept (no history, no undo), and it cannot be reversed. Name the facts by "ids" (from \
                search_memory) to erase them at once, or by "query": a call with a query and without \
                "confirm": true erases nothing and lists the facts that match; show them to the user, and \
                call again with "confirm": true (or with their ids) once the user agrees.
                """,
            inputSchema: [
                "type": "object",
                "properties": [
                    "ids": [
                        "type": "array", "items": ["type": "integer"], "minItems": 1,
                        "description": "The facts to erase.",
                    ],
                    "query": [
                        "type": "string", "description": "What to erase, in plain words: \"my health condition\".",
                    ],
                    "limit": [
                        "type": "integer", "minimum": 1, "maximum": 50,
                        "description": "With query: how many matching facts at most (default 10).",
                    ],
                    "confirm": [
                        "type": "boolean",
                        "description": "With query: true erases the matching facts; otherwise they are only listed.",
                    ],
                ],
                "additionalProperties": false,
            ],
            annotations: .init(
                title: "Erase memories for good", readOnlyHint: false, destructiveHint: true, idempotentHint: true,
                openWorldHint: false)),
        Tool(
            name: showTopic,
            title: "Show a topic",
            description:
                "Show one topic of the memory: its subtopics and the facts in it and below it, most important first.",
            inputSchema: [
                "type": "object",
                "properties": [
                    "path": [
                        "type": "string",
                        "description":
                            "The topic's path, matched ignoring case and accents: \"technology/ios development\".",
                    ],
                    "limit": [
                        "type": "integer", "minimum": 1, "maximum": 200,
                        "description": "How many facts to show (default 50).",
                    ],
                ],
                "required": ["path"],
                "additionalProperties": false,
            ],
            annotations: .init(title: "Show a topic", readOnlyHint: true, openWorldHint: false)),
        Tool(
            name: listTopics,
            title: "List topics",
            description:
                "List the whole topic tree of the memory with how many facts each topic holds. Use it to choose a topic for remember_fact or show_topic.",
            inputSchema: ["type": "object", "properties": [:], "additionalProperties": false],
            annotations: .init(title: "List topics", readOnlyHint: true, openWorldHint: false)),
        Tool(
            name: stats,
            title: "Memory statistics",
            description: "Count the remembered facts (active and forgotten), topics, and facts by type and importance.",
            inputSchema: ["type": "object", "properties": [:], "additionalProperties": false],
            annotations: .init(title: "Memory statistics", readOnlyHint: true, openWorldHint: false)),
    ]
}

/// The prompt `mnemo mcp` offers: the memory for a message, as a user message a client can put
/// at the top of a conversation.
enum MemoryPrompts {
    static let context = "memory_context"

    static let all: [Prompt] = [
        Prompt(
            name: context, title: "Memory for this message",
            description: "What the memory holds that matters for answering a message, within a token budget.",
            arguments: [
                .init(name: "message", description: "The user's message.", required: true),
                .init(
                    name: "budget",
                    description: "The most tokens the memory may take (default \(ContextBudget.default)).",
                    required: false),
            ])
    ]
}
