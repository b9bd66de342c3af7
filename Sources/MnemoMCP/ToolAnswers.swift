import Foundation
import Mnemo

/// The answer of `remember_fact`: what became of the fact, in words, and the fact as stored.
struct RememberAnswer: Encodable {
    /// `added`, `merged` or `unchanged`.
    var outcome: String
    var message: String
    var fact: FactJSON
}
