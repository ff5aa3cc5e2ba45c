import Foundation
import Testing
@testable import OpenCoreData

@Suite("String matching ([c], [d], LIKE, MATCHES)")
struct StringMatchingTests {
    typealias Options = CDComparisonPredicate.Options

    @Test("[c] folds case with full case folding, [d] removes diacritics")
    func folding() {
        #expect(StringMatching.equals("Straße", "STRASSE", .caseInsensitive))
        #expect(!StringMatching.equals("Straße", "STRASSE", []))
        #expect(StringMatching.equals("École", "ecole", [.caseInsensitive, .diacriticInsensitive]))
        #expect(!StringMatching.equals("École", "ecole", .caseInsensitive))
        #expect(StringMatching.equals("école", "ecole", .diacriticInsensitive))
        #expect(StringMatching.fold("ABC xyz", .caseInsensitive) == "abc xyz")
    }

    @Test("BEGINSWITH, ENDSWITH, CONTAINS compare bytes unless folded")
    func affixes() {
        #expect(StringMatching.beginsWith("Hello", "He", []))
        #expect(!StringMatching.beginsWith("Hello", "he", []))
        #expect(StringMatching.beginsWith("Hello", "he", .caseInsensitive))
        #expect(StringMatching.endsWith("Café", "fé", []))
        #expect(StringMatching.endsWith("Café", "FE", [.caseInsensitive, .diacriticInsensitive]))
        #expect(StringMatching.contains("a needle here", "needle", []))
        #expect(!StringMatching.contains("anything", "", []))
        #expect(!StringMatching.beginsWith("anything", "", []))
        #expect(!StringMatching.endsWith("", "", []))
        #expect(!StringMatching.contains("short", "longer text", []))
        #expect(StringMatching.contains("ÜBER", "über", .caseInsensitive))
    }

    @Test("LIKE: * and ? wildcards, backslash escapes")
    func like() {
        #expect(StringMatching.like("banana", "b*a", []))
        #expect(StringMatching.like("banana", "*an*", []))
        #expect(StringMatching.like("bat", "b?t", []))
        #expect(!StringMatching.like("boat", "b?t", []))
        #expect(StringMatching.like("", "*", []))
        #expect(!StringMatching.like("abc", "", []))
        #expect(StringMatching.like("a*c", "a\\*c", []))
        #expect(!StringMatching.like("abc", "a\\*c", []))
        #expect(StringMatching.like("ÉTÉ", "e?e", [.caseInsensitive, .diacriticInsensitive]))
        #expect(StringMatching.like("50% off?", "50% off\\?", []))
        #expect(!StringMatching.like("50% offX", "50% off\\?", []))
    }

    @Test("MATCHES: whole-string ICU regex; a bad pattern is a typed error")
    func matches() throws {
        #expect(try StringMatching.matches("abc123", "[a-z]+[0-9]+", []))
        #expect(try !StringMatching.matches("abc123x", "[a-z]+[0-9]+", []))
        #expect(try StringMatching.matches("ABC", "abc", .caseInsensitive))
        #expect(try StringMatching.matches("résumé", "resume", .diacriticInsensitive))
        #expect(throws: CoreDataError.self) { try StringMatching.matches("x", "(", []) }
    }
}

@Suite("String ordering by sort selector")
struct StringOrderingTests {
    @Test("each selector's order; strings the selector finds equal are .orderedSame, as NSString's methods")
    func selectors() {
        #expect(StringOrdering.compare("B", "a", .compare) == .orderedAscending)
        #expect(StringOrdering.compare("B", "a", .caseInsensitiveCompare) == .orderedDescending)
        #expect(StringOrdering.compare("A", "a", .caseInsensitiveCompare) == .orderedSame)
        #expect(StringOrdering.compare("a10", "a2", .compare) == .orderedAscending)
        #expect(StringOrdering.compare("a10", "a2", .localizedStandardCompare) == .orderedDescending)
        #expect(StringOrdering.compare("File 2", "file 10", .localizedStandardCompare) == .orderedAscending)
        #expect(StringOrdering.compare("b", "B", .localizedCaseInsensitiveCompare) == .orderedSame)
        #expect(StringOrdering.compare("b", "B", .localizedCompare) != .orderedSame)
    }
}
