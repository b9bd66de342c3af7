// The record mapping calls `SourceList.merging`, which lives in Sources/Mnemo/Storage/Fact+Row.swift
// next to GRDB row decoding; the fuzz targets are built without GRDB, so they get this copy of
// the one function. Keep it identical to the library's.
enum SourceList {
    static func merging(_ existing: [String], _ added: [String]) -> [String] {
        var seen = Set(existing)
        return existing + added.filter { seen.insert($0).inserted }
    }
}
