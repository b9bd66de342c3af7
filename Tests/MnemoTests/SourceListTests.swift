import Foundation
import Testing

@testable import Mnemo

@Suite("Source lists")
struct SourceListTests {
    @Test(arguments: [
        [], ["conv-1"], ["a", "b", "c"], ["with \"quotes\""], ["back\\slash"], ["ünïcödé 🎉", "tab\there"],
        ["a\",\"b"], [" spaced ", ""], ["line\nbreak"],
    ])
    func theFastPathReadsWhatTheEncoderWrote(_ sources: [String]) throws {
        let text = SourceList.encode(sources)
        #expect(SourceList.decode(text) == sources)
        if let plain = SourceList.decodePlain(text) { #expect(plain == sources) }
    }

    @Test func theFastPathAcceptsSpacesAndRefusesOtherShapes() {
        #expect(SourceList.decodePlain(#"["a", "b"]"#) == ["a", "b"])
        #expect(SourceList.decodePlain(#"["a\"b"]"#) == nil)
        #expect(SourceList.decodePlain(#"[1, 2]"#) == nil)
        #expect(SourceList.decodePlain(#"{"a": 1}"#) == nil)
        #expect(SourceList.decodePlain(#"["unterminated]"#) == nil)
        #expect(SourceList.decode("not json") == [])
    }
}
