import Foundation

/// The string operators of the predicate language — `BEGINSWITH`, `ENDSWITH`, `CONTAINS`,
/// `LIKE`, `MATCHES` and `==` with `[c]` / `[d]` — as one piece of Swift code that both the
/// in-memory evaluator and the SQLite store (through functions registered on the
/// connection) call, so the two give the same answers.
///
/// - Without options, strings compare by their UTF-8 bytes (as `ValueComparison` and
///   SQLite's default collation do).
/// - `[c]` folds case with Unicode full case folding (`ß` matches `SS`), `[d]` removes
///   diacritics (`é` matches `e`); plain ASCII takes a fast path that gives the same result.
/// - `LIKE` patterns use `*` (any run) and `?` (one Unicode scalar); a backslash makes the
///   next pattern character literal.
/// - `MATCHES` is an ICU regular expression that must match the whole string.
/// - An empty string is never a prefix, suffix or part of another, as with NSString's
///   `hasPrefix:` / `rangeOfString:` that NSPredicate uses.
package enum StringMatching {
    package typealias Options = CDComparisonPredicate.Options

    // MARK: - Folding

    /// `text` folded for comparison under `options` (`[c]`, `[d]`; `[n]` changes nothing).
    package static func fold(_ text: String, _ options: Options) -> String {
        let foldsCase = options.contains(.caseInsensitive)
        let foldsDiacritics = options.contains(.diacriticInsensitive)
        guard foldsCase || foldsDiacritics else { return text }
        if let ascii = foldASCII(text, foldsCase: foldsCase) { return ascii }
        var foundationOptions: String.CompareOptions = []
        if foldsCase { foundationOptions.insert(.caseInsensitive) }
        if foldsDiacritics { foundationOptions.insert(.diacriticInsensitive) }
        return text.folding(options: foundationOptions, locale: nil)
    }

    /// The ASCII fast path: `nil` when `text` has a non-ASCII byte.
    private static func foldASCII(_ text: String, foldsCase: Bool) -> String? {
        var isASCII = true
        var hasUpper = false
        for byte in text.utf8 {
            if byte >= 0x80 { isASCII = false; break }
            if byte >= 0x41 && byte <= 0x5A { hasUpper = true }
        }
        guard isASCII else { return nil }
        guard foldsCase && hasUpper else { return text }
        return String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    // MARK: - Operators

    /// `text ==[options] other`.
    package static func equals(_ text: String, _ other: String, _ options: Options) -> Bool {
        fold(text, options).utf8.elementsEqual(fold(other, options).utf8)
    }

    /// `text BEGINSWITH[options] prefix`.
    package static func beginsWith(_ text: String, _ prefix: String, _ options: Options) -> Bool {
        guard !prefix.isEmpty else { return false }
        return fold(text, options).utf8.starts(with: fold(prefix, options).utf8)
    }

    /// `text ENDSWITH[options] suffix`.
    package static func endsWith(_ text: String, _ suffix: String, _ options: Options) -> Bool {
        guard !suffix.isEmpty else { return false }
        return fold(text, options).utf8.reversed().starts(with: fold(suffix, options).utf8.reversed())
    }

    /// `text CONTAINS[options] part`.
    package static func contains(_ text: String, _ part: String, _ options: Options) -> Bool {
        let haystack = Array(fold(text, options).utf8)
        let needle = Array(fold(part, options).utf8)
        if needle.isEmpty { return false }
        guard needle.count <= haystack.count else { return false }
        let first = needle[0]
        var start = 0
        let lastStart = haystack.count - needle.count
        while start <= lastStart {
            if haystack[start] == first, haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
            start += 1
        }
        return false
    }

    /// `text LIKE[options] pattern`.
    package static func like(_ text: String, _ pattern: String, _ options: Options) -> Bool {
        let subject = Array(fold(text, options).unicodeScalars)
        let tokens = likeTokens(fold(pattern, options))
        // Greedy matching with one backtrack point: the last `*` seen.
        var (s, p) = (0, 0)
        var star: (pattern: Int, subject: Int)?
        while s < subject.count {
            if p < tokens.count, case .scalar(let wanted) = tokens[p], wanted == subject[s] {
                s += 1; p += 1
            } else if p < tokens.count, case .one = tokens[p] {
                s += 1; p += 1
            } else if p < tokens.count, case .any = tokens[p] {
                star = (p, s)
                p += 1
            } else if let backtrack = star {
                p = backtrack.pattern + 1
                s = backtrack.subject + 1
                star = (backtrack.pattern, backtrack.subject + 1)
            } else {
                return false
            }
        }
        while p < tokens.count, case .any = tokens[p] { p += 1 }
        return p == tokens.count
    }

    private enum LikeToken {
        case scalar(Unicode.Scalar)
        /// `?`
        case one
        /// `*`
        case any
    }

    private static func likeTokens(_ pattern: String) -> [LikeToken] {
        var tokens: [LikeToken] = []
        var escaped = false
        for scalar in pattern.unicodeScalars {
            if escaped {
                tokens.append(.scalar(scalar))
                escaped = false
                continue
            }
            switch scalar {
            case "\\": escaped = true
            case "*": tokens.append(.any)
            case "?": tokens.append(.one)
            default: tokens.append(.scalar(scalar))
            }
        }
        if escaped { tokens.append(.scalar("\\")) }
        return tokens
    }

    /// `text MATCHES[options] pattern`: the ICU regular expression matches all of `text`.
    ///
    /// - Throws: `.invalidPredicate` when `pattern` is not a valid regular expression, and
    ///   when ICU cannot give an answer: its backtracking stack (8 MB) overflows, as on a
    ///   subject of a million characters, or the match runs past `matchTimeLimit`
    ///   (catastrophic backtracking). ICU reports both as "no match"; that answer would
    ///   be wrong, so it is an error instead.
    package static func matches(_ text: String, _ pattern: String, _ options: Options) throws -> Bool {
        let diacritics: Options = options.intersection(.diacriticInsensitive)
        let subject = fold(text, diacritics)
        let regex = try regularExpression(fold(pattern, diacritics), caseInsensitive: options.contains(.caseInsensitive))
        let range = NSRange(subject.startIndex..., in: subject)
        let deadline = ContinuousClock.now + matchTimeLimit
        var outcome: Result<Bool, MatchFailure> = .success(false)
        // `.reportProgress` calls back every few thousand steps (the time check);
        // `.reportCompletion` reports ICU's failures, which `firstMatch` swallows.
        regex.enumerateMatches(in: subject, options: [.anchored, .reportProgress, .reportCompletion], range: range) { match, flags, stop in
            if let match {
                outcome = .success(match.range == range)
                stop.pointee = true
            } else if flags.contains(.internalError) {
                outcome = .failure(.stackLimit)
            } else if !flags.contains(.completed), ContinuousClock.now > deadline {
                outcome = .failure(.timeLimit)
                stop.pointee = true
            }
        }
        switch outcome {
        case .success(let matched): return matched
        case .failure(let failure): throw failure.error(pattern: pattern, length: range.length)
        }
    }

    /// How long one `MATCHES` may run before it is abandoned with an error.
    static let matchTimeLimit = Duration.milliseconds(500)

    /// Why ICU gave no answer.
    private enum MatchFailure: Error {
        case stackLimit, timeLimit

        func error(pattern: String, length: Int) -> CoreDataError {
            let shown = AttributeDescription.describe(pattern)
            switch self {
            case .stackLimit:
                return CoreDataError(.invalidPredicate, "MATCHES \(shown) cannot be decided on a string of \(length) UTF-16 units: ICU's regular-expression engine ran out of its 8 MB backtracking stack.")
            case .timeLimit:
                return CoreDataError(.invalidPredicate, "MATCHES \(shown) was abandoned after \(StringMatching.matchTimeLimit) on a string of \(length) UTF-16 units (the pattern backtracks catastrophically).")
            }
        }
    }

    private struct RegexKey: Hashable {
        let pattern: String
        let caseInsensitive: Bool
    }

    /// Compiled expressions, shared by every thread; bounded so hostile input cannot grow it.
    private static let regexCache = SanitizedMutex<[RegexKey: NSRegularExpression]>([:])
    private static let regexCacheLimit = 256

    private static func regularExpression(_ pattern: String, caseInsensitive: Bool) throws -> NSRegularExpression {
        let key = RegexKey(pattern: pattern, caseInsensitive: caseInsensitive)
        if let known = regexCache.withLock({ $0[key] }) { return known }
        let compiled: NSRegularExpression
        do {
            compiled = try NSRegularExpression(pattern: pattern, options: caseInsensitive ? [.caseInsensitive] : [])
        } catch {
            throw CoreDataError(.invalidPredicate, "'\(pattern)' is not a valid regular expression for MATCHES.")
        }
        regexCache.withLock { cache in
            if cache.count >= regexCacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[key] = compiled
        }
        return compiled
    }
}
