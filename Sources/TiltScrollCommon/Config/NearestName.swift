/// Finds the valid name a misspelt one was probably meant to be, for
/// "did you mean 'Speed'?" in configuration errors.
public enum NearestName {
    /// The candidate closest to `name`, or nil when none is close enough to be
    /// a plausible typo. Case is ignored when measuring (so `speed` finds
    /// `Speed`); ties go to the earliest candidate.
    public static func nearest(to name: String, among candidates: [String]) -> String? {
        // No valid name is long; measuring a pasted paragraph would only cost time.
        guard name.utf8.count <= 64 else { return nil }
        let typed = Array(name.lowercased())
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(typed, Array(candidate.lowercased()))
            if distance <= allowedDistance(typed.count, candidate.count), distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// About one edit per three characters: "Sped" -> "Speed", "DeadZoon" ->
    /// "DeadZone", but "Foo" suggests nothing.
    public static func allowedDistance(_ a: Int, _ b: Int) -> Int { max(1, min(a, b) / 3) }

    /// Optimal string alignment distance: insertions, deletions, substitutions
    /// and transpositions of neighbours ("Seped" -> "Speed") each cost one.
    public static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // Three rolling rows: the one before the previous is needed for transpositions.
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = a[i - 1] == b[j - 1] ? 0 : 1
                var cost = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    cost = min(cost, beforePrevious[j - 2] + 1)
                }
                current[j] = cost
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
