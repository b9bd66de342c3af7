import Foundation

/// Fills a context's budget item by item and lays the items out as Markdown.
///
/// Every line's cost is counted as it is added (an item's line, a topic's heading, the blank
/// line between topics): the estimator never counts more for a text than for its lines counted
/// apart (it only adds up runs of characters, and a line ends every run), so the rendered text
/// costs at most the sum, which never exceeds the budget.
struct ContextPacker {
    let budget: Int
    let estimator: TokenEstimator
    /// Whether two facts say the same thing (the later one then adds nothing).
    let isNearDuplicate: (Fact, Fact) -> Bool

    private(set) var used = 0
    /// Topics in the order their first item arrived, with their items (a conflict's partners
    /// sit in their anchor's topic, so the pair is read together).
    private var groups: [(topic: String, items: [(item: ContextItem, line: String)])] = []
    private var included: Set<Int64> = []

    init(budget: Int, estimator: TokenEstimator, isNearDuplicate: @escaping (Fact, Fact) -> Bool) {
        self.budget = budget
        self.estimator = estimator
        self.isNearDuplicate = isNearDuplicate
    }

    var items: [ContextItem] { groups.flatMap { $0.items.map(\.item) } }

    func contains(_ id: Int64) -> Bool { included.contains(id) }

    /// Adds `fact` and the facts it conflicts with (newer first) as one unit when all fit within
    /// `limit` tokens of use, and it is neither already in nor a near duplicate of an item.
    /// - Returns: whether the unit was added.
    @discardableResult
    mutating func add(_ fact: Fact, reason: ContextItem.Reason, score: Double?, partners: [Fact], limit: Int) -> Bool {
        guard !included.contains(fact.id) else { return false }
        // The groups are read in place: building `items` for every candidate copied every item.
        guard !groups.contains(where: { $0.items.contains { isNearDuplicate($0.item.fact, fact) } }) else {
            return false
        }
        let others = partners.filter { !included.contains($0.id) && $0.id != fact.id }
        let unit = ([fact] + others).sorted {
            $0.createdAt != $1.createdAt ? $0.createdAt > $1.createdAt : $0.id > $1.id
        }
        let area = Self.area(of: fact)
        let group = groups.firstIndex { $0.topic == area }
        var cost = group == nil ? headingCost(area) : 0
        var lines: [(item: ContextItem, line: String)] = []
        for (position, member) in unit.enumerated() {
            let role: ConflictRole = unit.count == 1 ? .none : position == 0 ? .newer : .older
            let line = Self.line(member, role: role)
            let tokens = estimator.count(line)
            cost += tokens
            let ids = unit.map(\.id).filter { $0 != member.id }
            lines.append(
                (
                    ContextItem(
                        fact: member, reason: member.id == fact.id ? reason : .conflict,
                        score: member.id == fact.id ? score : nil, tokens: tokens, conflictsWith: ids), line
                ))
        }
        guard used + cost <= min(limit, budget) else { return false }
        used += cost
        if let group {
            groups[group].items += lines
        } else {
            groups.append((area, lines))
        }
        included.formUnion(unit.map(\.id))
        return true
    }

    /// The Markdown of the items: topics in order of arrival, separated by a blank line.
    func render() -> String {
        groups.map { group in
            Self.heading(group.topic) + group.items.map(\.line).joined()
        }.joined(separator: "\n")
    }

    private func headingCost(_ topic: String) -> Int {
        estimator.count(Self.heading(topic)) + (groups.isEmpty ? 0 : estimator.count("\n"))
    }

    enum ConflictRole { case none, newer, older }

    /// The heading a fact goes under: its top-level topic. A heading per full path cost as much
    /// as a fact at small budgets (a 300-token context of six facts held five headings of about
    /// 12 tokens each); the facts' own words say the rest.
    static func area(of fact: Fact) -> String {
        String(fact.topicPath.prefix { $0 != "/" })
    }

    static func heading(_ topic: String) -> String {
        "## " + (topic.isEmpty ? "General" : oneLine(topic)) + "\n"
    }

    /// `- Content`, and in brackets only what the content does not say and an assistant needs:
    /// for an experience the day it was stated (`- Ran 21 km on Sunday (2025-04-28)`: what
    /// happened needs its when), for a goal where it stands when that is news (`(goal,
    /// completed 2025-11-09)`, `(goal, paused, progress 40 %, due 2026-03-31)`), and the note on
    /// a conflict's newer and older facts. A fact or a preference holds until it is changed, so
    /// its type and date were 15 of a line's 42 estimated tokens on the fixtures for little use:
    /// without them a 300-token context holds about ten facts instead of six (the type and
    /// date on every line held 0.08 and 0.10 less of the must-have facts at 300 tokens on the
    /// two judgement sets; the date on experiences costs up to 0.02 of that and is kept). A
    /// conflict's notes are `(later, conflicts with the next line)` and `(earlier)`: 21
    /// estimated tokens a pair where "stated later than the conflicting fact below" and
    /// "conflicts with the fact above" took 28, which at 300 tokens kept an allergy and its
    /// conflicting twin out of the standing quarter.
    static func line(_ fact: Fact, role: ConflictRole) -> String {
        var notes: [String] = []
        let standing = fact.type == .goal ? goalNote(fact) : ""
        if !standing.isEmpty { notes.append("goal, " + standing) }
        if fact.type == .experience { notes.append(day(fact.createdAt)) }
        switch role {
        case .none: break
        case .newer: notes.append("later, conflicts with the next line")
        case .older: notes.append("earlier")
        }
        return "- \(oneLine(fact.content))" + (notes.isEmpty ? "" : " (" + notes.joined(separator: "; ") + ")") + "\n"
    }

    /// Where a goal stands, when that is news: `completed 2025-11-09`, `paused, progress 40 %,
    /// due 2026-03-31`; empty for an active goal at 0 without a date.
    private static func goalNote(_ fact: Fact) -> String {
        guard let status = fact.status else { return "" }
        var parts: [String] = []
        switch status {
        case .active: break
        case .completed: parts.append("completed" + (fact.completedAt.map { " " + day($0) } ?? ""))
        case .paused, .abandoned: parts.append(status.rawValue)
        }
        if status != .completed, let progress = fact.progress, progress > 0 {
            parts.append("progress \(Int((progress * 100).rounded())) %")
        }
        if status != .completed, let due = fact.targetDate { parts.append("due " + day(due)) }
        return parts.joined(separator: ", ")
    }

    private static func day(_ date: Date) -> String { String(Timestamp.format(date).prefix(10)) }

    /// Text on one line: a fact's own line breaks would break the list.
    static func oneLine(_ text: String) -> String {
        // Most facts are one trimmed line already; Foundation's trimming was a quarter of the
        // time of a context on the fixtures.
        if !text.contains(where: \.isNewline), text.first?.isWhitespace != true, text.last?.isWhitespace != true {
            return text
        }
        return text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
    }
}

extension MemoryContext {
    /// The facts of a ranking packed in rank order into `budget` tokens as a context lays them
    /// out (same lines, headings and estimator), skipping any that no longer fits: the baseline
    /// a context is measured against (`mnemo eval --context-budget`).
    package static func packedInRankOrder(_ facts: [Fact], budget: Int, estimator: TokenEstimator = TokenEstimator())
        -> [Fact]
    {
        var packer = ContextPacker(budget: budget, estimator: estimator) { _, _ in false }
        for fact in facts { packer.add(fact, reason: .relevant, score: nil, partners: [], limit: budget) }
        return packer.items.map(\.fact)
    }

    /// The cost of `fact`'s line in a context (without a conflict note), by `estimator`.
    package static func lineCost(of fact: Fact, estimator: TokenEstimator = TokenEstimator()) -> Int {
        estimator.count(ContextPacker.line(fact, role: .none))
    }
}
