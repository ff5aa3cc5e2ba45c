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
    private func parseOnSmallStack(_ format: String) -> Outcome {
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
        thread.stackSize = 512 * 1024
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
