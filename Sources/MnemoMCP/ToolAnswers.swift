import Foundation
import Mnemo

/// The answer of `remember_fact`: what became of the fact, in words, and the fact as stored.
struct RememberAnswer: Encodable {
    /// `added`, `merged` or `unchanged`.
    var outcome: String
    var message: String
    var fact: FactJSON
    /// The facts deleted to make room, when the memory was full and the server evicts.
    var evicted: [FactJSON]?
}

/// What the forget tool would erase, before the user confirms.
struct ErasePreview: Encodable {
    var query: String
    var wouldErase: [SearchHitJSON]
    var message: String
}
