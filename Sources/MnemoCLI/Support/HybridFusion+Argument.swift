import ArgumentParser
import Mnemo

/// `--fusion rrf`, `rrf:60`, `weighted:0.6:32`, `normalized:0.35` or `standard`.
extension HybridFusion: ExpressibleByArgument {
    public init?(argument: String) {
        let parts = argument.lowercased().split(separator: ":").map(String.init)
        switch parts.first {
        case "standard" where parts.count == 1:
            self = .standard
        case "rrf":
            guard parts.count <= 2, let k = parts.count == 2 ? Double(parts[1]) : 60, k > 0 else { return nil }
            self = .reciprocalRank(k: k)
        case "weighted":
            guard parts.count == 3, let weight = Double(parts[1]), let saturation = Double(parts[2]),
                weight >= 0, saturation > 0
            else { return nil }
            self = .weightedScore(textWeight: weight, saturation: saturation)
        case "normalized":
            guard parts.count == 2, let weight = Double(parts[1]), (0...1).contains(weight) else { return nil }
            self = .normalizedSum(textWeight: weight)
        default:
            return nil
        }
    }

    /// The spelling `init(argument:)` reads, so `--help` shows `standard`, not the enum case.
    public var defaultValueDescription: String {
        switch self {
        case .standard: "standard"
        case .reciprocalRank(let k): "rrf:\(Self.spell(k))"
        case .weightedScore(let weight, let saturation): "weighted:\(Self.spell(weight)):\(Self.spell(saturation))"
        case .normalizedSum(let weight): "normalized:\(Self.spell(weight))"
        }
    }

    /// `60` rather than `60.0`; either reads back.
    private static func spell(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}
