import Foundation

/// The identity a fact or topic keeps on every replica of a namespace (``Fact/uid``,
/// ``Topic/uid``): a lowercase UUID, made where the fact or topic is first written and carried
/// by export, ingest, the JSON vocabulary and sync, beside the local integer ids.
enum StableID {
    /// A new id: a version 7 UUID (RFC 9562), the milliseconds since 1970, the fraction of the
    /// millisecond in 12 bits (the RFC's "increased clock precision"), then 62 random bits. Ids
    /// made one after another sort together, so the `(namespace, uid)` index grows at its end as
    /// a bulk ingest writes; and the random bits are one draw of the system's generator without a
    /// file (Foundation's `UUID()` on Linux opens `/dev/urandom` for each id: three system calls a
    /// fact).
    static func random(now: Date = Date()) -> String {
        var generator = SystemRandomNumberGenerator()
        let time = max(0, now.timeIntervalSince1970 * 1000)
        let milliseconds = UInt64(time) & 0xffff_ffff_ffff
        let fraction = UInt64((time - time.rounded(.down)) * 4096) & 0x0fff
        let high = milliseconds << 16 | 0x7000 | fraction
        let low = (generator.next() & 0x3fff_ffff_ffff_ffff) | 0x8000_0000_0000_0000
        return formatted(high: high, low: low)
    }

    /// A UUID-shaped id fixed by `text`: the same text gives the same id in every process and on
    /// every platform (two 64-bit FNV-1a hashes, the second seeded by the first). Topics take
    /// the id of their path, so that two devices creating the same path offline name it alike.
    static func derived(from text: String) -> String {
        let high = FNV1a.hash(text.utf8)
        let low = FNV1a.hash(text.utf8, continuing: high ^ 0x9e37_79b9_7f4a_7c15)
        // Version 8 ("custom") and the RFC 4122 variant, so it reads as a well-formed UUID.
        let versioned = (high & 0xffff_ffff_ffff_0fff) | 0x0000_0000_0000_8000
        let varianted = (low & 0x3fff_ffff_ffff_ffff) | 0x8000_0000_0000_0000
        return formatted(high: versioned, low: varianted)
    }

    /// The 128 bits as a lowercase UUID: 8-4-4-4-12 hexadecimal digits, written into the
    /// string's own storage (built from substrings, it showed in an ingest's profile).
    static func formatted(high: UInt64, low: UInt64) -> String {
        String(unsafeUninitializedCapacity: 36) { text in
            var position = 0
            for nibble in 0..<32 {
                if nibble == 8 || nibble == 12 || nibble == 16 || nibble == 20 {
                    text[position] = UInt8(ascii: "-")
                    position += 1
                }
                let word = nibble < 16 ? high : low
                let digit = UInt8(truncatingIfNeeded: word >> (60 - 4 * UInt64(nibble % 16))) & 0xf
                text[position] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
                position += 1
            }
            return position
        }
    }

    /// The id a topic gets for its path when no other topic of the namespace holds it.
    static func topic(namespace: String, pathKey: String) -> String {
        derived(from: "topic\u{1F}\(namespace)\u{1F}\(pathKey)")
    }
}
