import Foundation
import Mnemo

/// How much of each question's evidence a memory context holds at a token budget, against the
/// plain hybrid ranking packed in rank order into the same budget with the same estimator and
/// layout (``MemoryContext/packedInRankOrder(_:budget:estimator:)``).
///
/// A question's evidence recall is the share of its relevant documents (qrels grade above 0)
/// among the sources of the facts included; the figures are means over the judged questions,
/// overall and per category when the dataset folder has a `categories.tsv` (`query-id`,
/// `category`, `name`).
public struct ContextRecall: Sendable, Hashable {
    public var budget: Int
    public var contextEvidenceRecall: Double
    public var topkEvidenceRecall: Double
    /// Per category name: the two recalls and the number of questions.
    public var categories: [String: Category]

    public struct Category: Sendable, Hashable {
        public var queries: Int
        public var contextEvidenceRecall: Double
        public var topkEvidenceRecall: Double
    }

    /// Accumulates questions' recalls for one budget.
    struct Tally {
        var budget: Int
        var context = 0.0, topk = 0.0, count = 0
        var categories: [String: (context: Double, topk: Double, count: Int)] = [:]

        mutating func add(context: Double, topk: Double, category: String?) {
            self.context += context
            self.topk += topk
            count += 1
            if let category {
                categories[category, default: (0, 0, 0)].context += context
                categories[category, default: (0, 0, 0)].topk += topk
                categories[category, default: (0, 0, 0)].count += 1
            }
        }

        var result: ContextRecall {
            ContextRecall(
                budget: budget, contextEvidenceRecall: count == 0 ? 0 : context / Double(count),
                topkEvidenceRecall: count == 0 ? 0 : topk / Double(count),
                categories: categories.mapValues {
                    Category(
                        queries: $0.count, contextEvidenceRecall: $0.context / Double($0.count),
                        topkEvidenceRecall: $0.topk / Double($0.count))
                })
        }
    }

    /// The share of `evidence` among the sources of `facts`; 0 for no evidence.
    static func recall(_ facts: [Fact], evidence: Set<String>) -> Double {
        guard !evidence.isEmpty else { return 0 }
        let sources = Set(facts.flatMap(\.sources))
        return Double(evidence.intersection(sources).count) / Double(evidence.count)
    }

    /// Query id → category name, read from `categories.tsv` in `folder` if it is there.
    public static func categories(in folder: URL) -> [String: String] {
        guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent("categories.tsv").path)
        else { return [:] }
        var names: [String: String] = [:]
        for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).dropFirst() {
            let fields = line.split(separator: "\t").map(String.init)
            if fields.count >= 3 {
                names[fields[0]] = fields[2]
            } else if fields.count == 2 {
                names[fields[0]] = fields[1]
            }
        }
        return names
    }
}

/// The date a BEIR document was stated, when its title carries one as LoCoMo's do
/// ("Caroline (1:56 pm on 8 May, 2023)"): a context dates its items and picks recent ones by it.
enum DocumentDate {
    static func parse(_ title: String) -> Date? {
        let words = title.split { $0 == " " || $0 == "(" || $0 == ")" || $0 == "," }.map(String.init)
        guard let on = words.lastIndex(of: "on"), on + 3 < words.count + 1, words.count >= on + 4 else { return nil }
        guard let day = Int(words[on + 1]), let month = months[words[on + 2].lowercased()],
            let year = Int(words[on + 3])
        else { return nil }
        var hour = 0
        var minute = 0
        if on >= 2, let time = words[on - 2].split(separator: ":").map(String.init) as [String]?, time.count == 2,
            let h = Int(time[0]), let m = Int(time[1])
        {
            hour = h % 12 + (words[on - 1].lowercased() == "pm" ? 12 : 0)
            minute = m
        }
        let text = String(format: "%04d-%02d-%02dT%02d:%02d:00Z", year, month, day, hour, minute)
        return Mnemo.TimeBound(text).map { $0.resolved(as: .since, now: Date()) }
    }

    private static let months: [String: Int] = [
        "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7, "august": 8,
        "september": 9, "october": 10, "november": 11, "december": 12,
    ]
}
