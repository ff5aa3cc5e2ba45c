import Foundation
import Testing
@testable import OpenCoreData

@Suite struct PredicateSubstitutionTests {
    @Test func variablesAreReplacedEverywhere() throws {
        let template = try CDPredicate(format: """
            title BEGINSWITH[c] $PREFIX AND price BETWEEN {$LOW, $HIGH} AND ANY tags.name IN $TAGS \
            AND TERNARY(flag == $FLAG, a, b)[FIRST] == $NONE AND sqrt($N) > -$N AND $OBJECT.x == 1
            """)
        let date = Date(timeIntervalSinceReferenceDate: 5)
        let result = try template.withSubstitutionVariables([
            "PREFIX": "mi", "LOW": 1, "HIGH": 2.5, "TAGS": ["a", "b"], "FLAG": true, "NONE": nil, "N": date,
            "OBJECT": CDExpression.keyPath("parent"), "UNUSED": 0,
        ])
        let expected = try CDPredicate(format: """
            title BEGINSWITH[c] 'mi' AND price BETWEEN {1, 2.5} AND ANY tags.name IN {'a', 'b'} \
            AND TERNARY(flag == YES, a, b)[FIRST] == nil AND sqrt(%@) > -%@ AND parent.x == 1
            """, date, date)
        #expect(result == expected)
        #expect(try CDPredicate(format: result.predicateFormat) == result)
        #expect(template.predicateFormat.contains("$PREFIX"), "the template is unchanged")
    }

    @Test func theSubqueryVariableIsNotReplacedInsideItsSubquery() throws {
        let template = try CDPredicate(format: "SUBQUERY($COLLECTION, $x, $x.n > $x AND $y == 1).@count == $x")
        let result = try template.withSubstitutionVariables(["COLLECTION": CDExpression.keyPath("items"), "x": 3, "y": 4])
        #expect(result == (try CDPredicate(format: "SUBQUERY(items, $x, $x.n > $x AND 4 == 1).@count == 3")))
    }

    @Test func aMissingVariableIsATypedErrorNamingIt() throws {
        let template = try CDPredicate(format: "a == $FIRST_ONE OR b == $SECOND")
        let error = try #require(throws: CoreDataError.self) { try template.withSubstitutionVariables(["FIRST_ONE": 1]) }
        #expect(error.code == .invalidPredicate)
        #expect(error.key == "SECOND")
        #expect(error.message.contains("$SECOND") && error.message.contains("$FIRST_ONE"))
        struct Opaque {}
        let bad = try #require(throws: CoreDataError.self) { try template.withSubstitutionVariables(["FIRST_ONE": Opaque(), "SECOND": 1]) }
        #expect(bad.code == .invalidPredicate && bad.message.contains("$FIRST_ONE"))
    }

    @Test func expressionsSubstituteToo() throws {
        let expression = CDExpression(forFunction: "add:to:", arguments: [.variable("A"), .keyPath("b")])
        #expect(try expression.withSubstitutionVariables(["A": 2]) == CDExpression(forFunction: "add:to:", arguments: [.constant(2), .keyPath("b")]))
        #expect(throws: CoreDataError.self) { try CDExpression.variable("A").withSubstitutionVariables([:]) }
    }
}
