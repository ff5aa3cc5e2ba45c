import Foundation
import Synchronization
import Testing
@testable import OpenCoreData

@Suite struct PredicateLimitsTests {
    /// What parsing (and using) a format produced, carried back from the worker thread.
    private enum Outcome: Sendable, Equatable {
        case parsed(String)
        case failed(message: String, offset: Int?)

        var message: String {
            switch self {
            case .parsed(let format): return format
            case .failed(let message, _): return message
            }
        }

        var offset: Int? {
            if case .failed(_, let offset) = self { return offset }
            return nil
        }
    }

    /// Parses `format` on a thread with a 512 KiB stack; a parsed predicate is also printed,
    /// re-parsed, compared, hashed and evaluated there, so all its recursion runs on that stack.
    private func parseOnSmallStack(_ format: String, stackSize: Int = 512 * 1024) -> Outcome {
        let result = Mutex<Outcome?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let outcome: Outcome
            do {
                let predicate = try CDPredicate(format: format)
                let printed = predicate.predicateFormat
                let again = try CDPredicate(format: printed)
                _ = again == predicate
                _ = again.hashValue
                _ = predicate.evaluate(with: ["a": 1])
                outcome = .parsed(printed)
            } catch let error as CoreDataError {
                outcome = .failed(message: error.message, offset: error.offset)
            } catch {
                outcome = .failed(message: "\(error)", offset: nil)
            }
            result.withLock { $0 = outcome }
            done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        done.wait()
        return result.withLock { $0 } ?? .failed(message: "no result", offset: nil)
    }

    private func nested(_ depth: Int) -> String {
        String(repeating: "(", count: depth) + "a == 1" + String(repeating: ")", count: depth)
    }

    // MARK: - Length

    @Test func hugeInputsAreRejectedBeforeParsing() {
        let deepParentheses = parseOnSmallStack(nested(100_000))
        #expect(deepParentheses.message.contains("limit is 65536"))
        #expect(deepParentheses.offset == nil)
        let manyNots = parseOnSmallStack(String(repeating: "NOT ", count: 100_000) + "a == 1")
        #expect(manyNots.message.contains("limit is 65536"))
    }

    @Test func theLengthLimitCountsUTF8Bytes() {
        let fits = "a == '" + String(repeating: "x", count: 65_536 - 7) + "'"
        #expect(fits.utf8.count == 65_536)
        #expect(parseOnSmallStack(fits).offset == nil)
        #expect(!parseOnSmallStack(fits).message.contains("limit"))
        let tooLong = "a == '" + String(repeating: "é", count: 33_000) + "'"
        #expect(parseOnSmallStack(tooLong).message.contains("limit is 65536"))
    }

    // MARK: - Depth

    @Test func deepNestingWithinTheLengthLimitIsAnError() {
        let parentheses = parseOnSmallStack(nested(30_000))
        #expect(parentheses.message.contains("nesting deeper than 100 levels at '('"))
        #expect(parentheses.offset == 100)

        let nots = parseOnSmallStack(String(repeating: "NOT ", count: 16_000) + "a == 1")
        #expect(nots.message.contains("nesting deeper than 100"))
        #expect(nots.offset == 400)

        let bangs = parseOnSmallStack(String(repeating: "!", count: 60_000) + "a == 1")
        #expect(bangs.offset == 100)

        let casts = parseOnSmallStack("a == " + String(repeating: "CAST(", count: 12_000))
        #expect(casts.message.contains("nesting deeper than 100"))
    }

    @Test func nestingUpToTheLimitParsesAndIsUsableOnASmallStack() {
        #expect(parseOnSmallStack(nested(100)) == .parsed("a == 1"))
        #expect(parseOnSmallStack(nested(101)).offset == 100)

        let mixed = String(repeating: "NOT (", count: 50) + "a == 1" + String(repeating: ")", count: 50)
        let outcome = parseOnSmallStack(mixed)
        #expect(outcome.message.hasPrefix("NOT NOT NOT"), "\(outcome)")
        #expect(parseOnSmallStack("NOT " + mixed).offset != nil)

        let deepest = (0..<49).reduce("a == 1") { inner, index in
            "(" + inner + (index.isMultiple(of: 2) ? " AND b == 2)" : " OR NOT c == 3)")
        }
        if case .failed(let message, _) = parseOnSmallStack(deepest) { Issue.record("\(message)") }
    }

    /// `open` repeated `depth` times around `inner`, each closed by `close`.
    private func wrapped(_ inner: String, depth: Int, open: String, close: String) -> String {
        String(repeating: open, count: depth) + inner + String(repeating: close, count: depth)
    }

    /// Every construct that nests, each as a comparison nested `depth` deep.
    private func nestingConstructs(_ depth: Int) -> [String: String] {
        [
            "predicate parentheses": wrapped("a == 1", depth: depth, open: "(", close: ")"),
            "NOT": String(repeating: "NOT ", count: depth) + "a == 1",
            "!": String(repeating: "!", count: depth) + "a == 1",
            "expression parentheses": "a == " + wrapped("1", depth: depth, open: "(", close: ")"),
            "aggregates": "a IN " + wrapped("b", depth: depth, open: "{", close: "}"),
            "unary minus": "a == " + String(repeating: "-", count: depth) + "b",
            "function calls": "a == " + wrapped("1", depth: depth, open: "sqrt(", close: ")"),
            "selector calls": "a == " + wrapped("1", depth: depth, open: "abs:(", close: ")"),
            "CAST": "a == " + wrapped("b", depth: depth, open: "CAST(", close: ", 'NSString')"),
            "FUNCTION": "a == " + wrapped("b", depth: depth, open: "FUNCTION(", close: ", 'f')"),
            "TERNARY": "a == " + wrapped("b", depth: depth, open: "TERNARY(c == 1, ", close: ", d)"),
            "SUBQUERY": wrapped("$x.n == 1", depth: depth, open: "SUBQUERY(items, $x, ", close: ").@count == 0"),
            "index": "a == " + wrapped("0", depth: depth, open: "b[", close: "]"),
            "index chain": "a" + String(repeating: "[0]", count: depth) + " == 1",
            "arithmetic chain": "a == 1" + String(repeating: " + 1", count: depth),
            "power chain": "a == 1" + String(repeating: " ** 1", count: depth),
            "set chain": "a == b" + String(repeating: " UNION b", count: depth),
            "member chain": "a == $x" + String(repeating: "[0].b", count: depth),
        ]
    }

    @Test func hostileNestingOfEveryConstructFailsCleanlyOnA64KiBStack() {
        for (construct, format) in nestingConstructs(100_000) {
            let cut = String(format.unicodeScalars.prefix(PredicateLimits.maximumFormatLength).map(Character.init))
            for input in [format, cut] {
                let outcome = parseOnSmallStack(input, stackSize: 64 * 1024)
                #expect(outcome.message.contains("limit is 65536") || outcome.message.contains("deeper than 100"),
                        "\(construct): \(outcome.message.prefix(300))")
            }
        }
    }

    @Test func everyConstructNestsUpToTheLimit() {
        // 45 levels of any construct fit, even those that count two levels per step
        // (SUBQUERY, TERNARY, `[0].b`) or whose canonical form does (`-`, `**`).
        for (construct, format) in nestingConstructs(45) {
            if case .failed(let message, _) = parseOnSmallStack(format) { Issue.record("\(construct): \(message.prefix(300))") }
        }
        // At 100 levels each one parses, with everything done to it on the small stack, or
        // fails with a limit error; at 101 each one fails.
        for (construct, format) in nestingConstructs(100) {
            let outcome = parseOnSmallStack(format)
            if case .failed(let message, _) = outcome {
                #expect(message.contains("deeper than 100"), "\(construct): \(message.prefix(300))")
            }
        }
        for (construct, format) in nestingConstructs(101) {
            let outcome = parseOnSmallStack(format)
            #expect(outcome.message.contains("deeper than 100"), "\(construct): \(outcome.message.prefix(300))")
        }
    }

    // MARK: - Terms

    @Test func theNumberOfComparisonsIsLimited() {
        let terms = { (count: Int) in Array(repeating: "a==1", count: count).joined(separator: "||") }
        let atLimit = parseOnSmallStack(terms(10_000))
        #expect(atLimit.offset == nil, "\(atLimit.message.prefix(200))")
        let overLimit = parseOnSmallStack(terms(10_001))
        #expect(overLimit.message.contains("more than 10000 comparisons, at 'a'"))
        #expect(overLimit.offset == 10_000 * 6)
    }
}
