import Foundation

/// The checks of a push before anything of it is applied: each failure names its field, such
/// as `operations[3].uid`.
enum SyncValidation {
    static let maximumOperations = 5_000
    static let maximumIDLength = 128

    static func check(_ request: SyncPushRequest, namespace: String) throws {
        guard request.namespace == namespace else {
            throw MnemoError.invalidInput(
                field: "namespace",
                reason: "the push names namespace \"\(request.namespace.prefix(64))\", not the caller's")
        }
        try checkID(request.device, field: "device")
        guard request.operations.count <= maximumOperations else {
            throw MnemoError.invalidInput(
                field: "operations",
                reason: "\(request.operations.count) operations in one push; at most \(maximumOperations)")
        }
        var seen = Set<String>()
        for (index, operation) in request.operations.enumerated() {
            let field = "operations[\(index)]"
            try checkID(operation.id, field: "\(field).id")
            guard seen.insert(operation.id).inserted else {
                throw MnemoError.invalidInput(field: "\(field).id", reason: "\"\(operation.id)\" is given twice")
            }
            try checkUID(operation.uid, field: "\(field).uid")
            switch operation.kind {
            case .delete, .erase:
                continue
            case .moveTopic:
                guard let from = operation.from, let to = operation.to else {
                    throw MnemoError.invalidInput(
                        field: "\(field).\(operation.from == nil ? "from" : "to")",
                        reason: "a move_topic names the topic's path before and after")
                }
                _ = try SyncTopicMove(from: from, to: to).validated(field: field)
            case .add, .update, .restore:
                guard let fact = operation.fact else {
                    throw MnemoError.invalidInput(
                        field: "\(field).fact", reason: "a \(operation.kind.rawValue) carries the fact's state")
                }
                guard fact.uid == operation.uid else {
                    throw MnemoError.invalidInput(
                        field: "\(field).fact.uid", reason: "the fact's uid is not the operation's")
                }
                do {
                    _ = try fact.validated(embedding: nil)
                } catch let MnemoError.invalidInput(inner, reason) {
                    throw MnemoError.invalidInput(field: "\(field).fact.\(inner)", reason: reason)
                }
            }
            if operation.kind == .update {
                guard let fields = operation.fields, !fields.isEmpty else {
                    throw MnemoError.invalidInput(field: "\(field).fields", reason: "an update names its fields")
                }
                if let unknown = fields.first(where: { !SyncFact.fieldNames.contains($0) }) {
                    throw MnemoError.invalidInput(
                        field: "\(field).fields",
                        reason:
                            "\"\(unknown.prefix(64))\" is not a field (\(SyncFact.fieldNames.sorted().joined(separator: ", ")))"
                    )
                }
            }
        }
    }

    private static func checkID(_ id: String, field: String) throws {
        guard !id.isEmpty, id.count <= maximumIDLength else {
            throw MnemoError.invalidInput(field: field, reason: "must be 1 to \(maximumIDLength) characters")
        }
    }

    static func checkUID(_ uid: String, field: String) throws {
        guard UUID(uuidString: uid) != nil, uid == uid.lowercased() else {
            throw MnemoError.invalidInput(field: field, reason: "\"\(uid.prefix(64))\" is not a lowercase UUID")
        }
    }
}
