import Foundation
import Testing
@testable import OpenCoreData

/// `#Predicate` over a typed subclass lowers to the tree the format language (or the
/// Swift builders, for what the parser does not read yet) gives.
@Suite struct FoundationPredicateTreeTests {
    init() { _ = ErrandModel.model() }

    private func lowered(_ predicate: Predicate<Errand>) throws -> CDPredicate {
        try CDPredicate(predicate)
    }

    private func parsed(_ format: String, _ arguments: Any?...) throws -> CDPredicate {
        try CDPredicate(format: format, argumentArray: arguments)
    }

    // MARK: - Comparisons and logic (same tree as the format string)

    @Test func comparisonsLowerAsTheFormatParsesThem() throws {
        #expect(try lowered(#Predicate { $0.title == "Milk" }) == parsed("title == 'Milk'"))
        #expect(try lowered(#Predicate { $0.priority != 3 }) == parsed("priority != 3"))
        #expect(try lowered(#Predicate { $0.priority < 3 }) == parsed("priority < 3"))
        #expect(try lowered(#Predicate { $0.priority <= 3 }) == parsed("priority <= 3"))
        #expect(try lowered(#Predicate { $0.priority > 3 }) == parsed("priority > 3"))
        #expect(try lowered(#Predicate { $0.priority >= 3 }) == parsed("priority >= 3"))
        #expect(try lowered(#Predicate { $0.estimate > 0.5 }) == parsed("estimate > 0.5"))
        #expect(try lowered(#Predicate { 3 < $0.priority }) == parsed("3 < priority"))
    }

    @Test func booleansAndNilLowerAsTheFormatParsesThem() throws {
        #expect(try lowered(#Predicate { $0.done }) == parsed("done == YES"))
        #expect(try lowered(#Predicate { $0.done == false }) == parsed("done == NO"))
        #expect(try lowered(#Predicate { $0.note == nil }) == parsed("note == nil"))
        #expect(try lowered(#Predicate { $0.note != nil }) == parsed("note != nil"))
        #expect(try lowered(#Predicate { $0.parent == nil }) == parsed("parent == nil"))
        #expect(try lowered(#Predicate { _ in true }) == parsed("TRUEPREDICATE"))
        #expect(try lowered(.false) == parsed("FALSEPREDICATE"))
    }

    @Test func logicalChainsFlattenAsTheParserBuildsThem() throws {
        #expect(try lowered(#Predicate { $0.done && $0.priority > 1 && $0.title != "x" })
            == parsed("done == YES AND priority > 1 AND title != 'x'"))
        #expect(try lowered(#Predicate { $0.done || $0.priority > 1 || $0.note == nil })
            == parsed("done == YES OR priority > 1 OR note == nil"))
        #expect(try lowered(#Predicate { !$0.done }) == parsed("NOT done == YES"))
        #expect(try lowered(#Predicate { $0.done && ($0.priority > 1 || !($0.note == nil)) })
            == parsed("done == YES AND (priority > 1 OR NOT note == nil)"))
        #expect(try lowered(#Predicate { $0.done || ($0.priority > 1 && $0.priority < 4) })
            == parsed("done == YES OR (priority > 1 AND priority < 4)"))
    }

    @Test func toOneKeyPathsLowerToDottedPaths() throws {
        #expect(try lowered(#Predicate { $0.parent?.title == "Shop" }) == parsed("parent.title == 'Shop'"))
        #expect(try lowered(#Predicate { $0.parent?.parent?.priority == 2 }) == parsed("parent.parent.priority == 2"))
        #expect(try lowered(#Predicate { $0.parent!.title == "Shop" }) == parsed("parent.title == 'Shop'"))
        #expect(try lowered(#Predicate { $0.parent?.note == nil }) == parsed("parent.note == nil"))
    }

    @Test func capturedValuesBecomeConstants() throws {
        let title = "Milk"
        let due = Date(timeIntervalSinceReferenceDate: 1_000)
        let limit: Int64 = 7
        #expect(try lowered(#Predicate { $0.title == title }) == parsed("title == %@", title))
        #expect(try lowered(#Predicate { $0.due! < due }) == parsed("due < %@", due))
        #expect(try lowered(#Predicate { $0.priority > limit }) == parsed("priority > %@", 7))
    }

    // MARK: - Constructs the parser does not read yet (same tree as the builders)

    @Test func conditionalsLowerToTernaryOrItsExpansion() throws {
        let done = CDExpression.keyPath("done").equalTo(.bool(true))
        let high = CDExpression.keyPath("priority").greaterThan(3)
        let low = CDExpression.keyPath("priority").lessThan(3)
        #expect(try lowered(#Predicate { $0.done ? $0.priority > 3 : $0.priority < 3 })
            == ((done && high) || (!done && low)))
        let ternary = CDExpression(forConditional: done, trueExpression: .keyPath("priority"), falseExpression: .constant(0))
        #expect(try lowered(#Predicate { ($0.done ? $0.priority : 0) > 2 }) == ternary.greaterThan(2))
    }

    @Test func arithmeticLowersToNSExpressionFunctions() throws {
        func function(_ name: String, _ arguments: CDExpression...) -> CDExpression {
            CDExpression(forFunction: name, arguments: arguments)
        }
        let priority = CDExpression.keyPath("priority")
        #expect(try lowered(#Predicate { $0.priority + 1 > 3 }) == function("add:to:", priority, .constant(1)).greaterThan(3))
        #expect(try lowered(#Predicate { $0.priority - 1 > 3 }) == function("from:subtract:", priority, .constant(1)).greaterThan(3))
        #expect(try lowered(#Predicate { $0.priority * 2 > 3 }) == function("multiply:by:", priority, .constant(2)).greaterThan(3))
        #expect(try lowered(#Predicate { $0.priority / 2 == 1 })
            == function("trunc:", function("divide:by:", priority, .constant(2))).equalTo(1))
        #expect(try lowered(#Predicate { $0.estimate / 2 < 1 })
            == function("divide:by:", .keyPath("estimate"), .constant(2.0)).lessThan(1.0))
        #expect(try lowered(#Predicate { $0.priority % 2 == 1 }) == function("modulus:by:", priority, .constant(2)).equalTo(1))
        #expect(try lowered(#Predicate { -$0.priority < -2 }) == function("from:subtract:", .constant(0), priority).lessThan(-2))
        #expect(try lowered(#Predicate { $0.estimate > -0.5 }) == parsed("estimate > -0.5"))
    }

    @Test func optionalsLowerSoNilPropagates() throws {
        let note = CDExpression.keyPath("note")
        let coalesced = CDExpression(forConditional: note.notEqualTo(.null), trueExpression: note, falseExpression: .constant("none"))
        #expect(try lowered(#Predicate { ($0.note ?? "none") == "weekly" }) == coalesced.equalTo("weekly"))

        let parent = CDExpression.keyPath("parent")
        let plusOne = CDExpression(forFunction: "add:to:", arguments: [.keyPath("parent.priority"), .constant(1)])
        let guarded = CDExpression(forConditional: parent.equalTo(.null), trueExpression: .constant(.null), falseExpression: plusOne)
        #expect(try lowered(#Predicate { $0.parent.flatMap { $0.priority + 1 } == 4 }) == guarded.equalTo(4))
    }

    @Test func coalescedConditionsNeedNoTernary() throws {
        let parentDone = CDExpression.keyPath("parent.done")
        #expect(try lowered(#Predicate { $0.parent?.done ?? false }) == parentDone.equalTo(.bool(true)))
        #expect(try lowered(#Predicate { $0.parent?.done ?? true }) == (parentDone.equalTo(.null) || parentDone.equalTo(.bool(true))))

        let parent = CDExpression.keyPath("parent")
        let milk = CDExpression.keyPath("parent.title").compare(.contains, .constant("Milk"))
        #expect(try lowered(#Predicate { $0.parent?.title.contains("Milk") ?? false }) == (parent.notEqualTo(.null) && milk))
        #expect(try lowered(#Predicate { $0.parent?.title.contains("Milk") ?? true }) == (parent.equalTo(.null) || milk))
    }

    @Test func stringOperationsLowerToStringOperators() throws {
        let title = CDExpression.keyPath("title")
        #expect(try lowered(#Predicate { $0.title.contains("il") }) == title.compare(.contains, .constant("il")))
        #expect(try lowered(#Predicate { $0.title.starts(with: "Mi") }) == title.compare(.beginsWith, .constant("Mi")))
        #expect(try lowered(#Predicate { $0.title.count > 3 })
            == CDExpression(forFunction: "length:", arguments: [title]).greaterThan(3))
        #expect(try lowered(#Predicate { $0.title.isEmpty })
            == CDExpression(forFunction: "length:", arguments: [title]).equalTo(0))
    }

    @Test func sequenceContainsLowersToIn() throws {
        let titles = ["Milk", "Eggs"]
        #expect(try lowered(#Predicate { titles.contains($0.title) })
            == CDExpression.keyPath("title").compare(.in, .constant(["Milk", "Eggs"])))
        #expect(try lowered(#Predicate { [1, 2].contains($0.priority) })
            == CDExpression.keyPath("priority").compare(.in, .constant([1, 2])))
    }

    @Test func orderedToManyElementsLowerToIndexes() throws {
        let checklist = CDExpression.keyPath("checklist")
        let second = CDExpression(.index(checklist, .expression(.constant(1))))
        #expect(try lowered(#Predicate { $0.checklist[1].title == "Milk" }) == second.appendingKeyPath("title").equalTo("Milk"))
        let first = CDExpression(.index(checklist, .first))
        #expect(try lowered(#Predicate { $0.checklist.first?.priority == 2 }) == first.appendingKeyPath("priority").equalTo(2))
        let last = CDExpression(.index(checklist, .last))
        #expect(try lowered(#Predicate { $0.checklist.last == nil }) == last.equalTo(.null))
    }

    @Test func rangesLowerToBetweenOrBounds() throws {
        let priority = CDExpression.keyPath("priority")
        #expect(try lowered(#Predicate { (1...3).contains($0.priority) })
            == priority.compare(.between, CDExpression(forAggregate: [.constant(1), .constant(3)])))
        #expect(try lowered(#Predicate { (1..<3).contains($0.priority) }) == (priority.greaterThanOrEqualTo(1) && priority.lessThan(3)))
    }

    @Test func toManyCountsLowerToAtCount() throws {
        #expect(try lowered(#Predicate { $0.steps.count > 2 }) == parsed("steps.@count > 2"))
        #expect(try lowered(#Predicate { $0.steps.isEmpty }) == parsed("steps.@count == 0"))
        #expect(try lowered(#Predicate { $0.parent?.steps.count == 3 }) == parsed("parent.steps.@count == 3"))
    }

    @Test func containsWhereLowersToAnyOrSubquery() throws {
        #expect(try lowered(#Predicate { $0.steps.contains { $0.title == "Milk" } })
            == CDExpression.keyPath("steps.title").compare(.equalTo, .constant("Milk"), modifier: .any))
        #expect(try lowered(#Predicate { $0.steps.contains { $0.title.starts(with: "M") } })
            == CDExpression.keyPath("steps.title").compare(.beginsWith, .constant("M"), modifier: .any))

        let element = CDExpression(.member(.variable("x"), keyPath: "title"))
        let notMilk = CDExpression(forSubquery: .keyPath("steps"), usingIteratorVariable: "x", predicate: element.notEqualTo("Milk"))
        #expect(try lowered(#Predicate { $0.steps.contains { $0.title != "Milk" } }) == notMilk.appendingKeyPath("@count").greaterThan(0))
    }

    @Test func allSatisfyAndFilterLowerToSubqueries() throws {
        let done = CDExpression(.member(.variable("x"), keyPath: "done")).equalTo(.bool(true))
        let notDone = CDExpression(forSubquery: .keyPath("steps"), usingIteratorVariable: "x", predicate: !done)
        #expect(try lowered(#Predicate { $0.steps.allSatisfy { $0.done } }) == notDone.appendingKeyPath("@count").equalTo(0))

        let doneSteps = CDExpression(forSubquery: .keyPath("steps"), usingIteratorVariable: "x", predicate: done)
        #expect(try lowered(#Predicate { $0.steps.filter { $0.done }.count == 1 }) == doneSteps.appendingKeyPath("@count").equalTo(1))
    }

    @Test func nestedSubqueriesNameTheirVariablesApart() throws {
        let innerDone = CDExpression(.member(.variable("x1"), keyPath: "done")).equalTo(.bool(true))
        let innerHigh = CDExpression(.member(.variable("x1"), keyPath: "priority")).greaterThan(1)
        let inner = CDExpression(
            forSubquery: CDExpression(.member(.variable("x"), keyPath: "steps")),
            usingIteratorVariable: "x1",
            predicate: innerDone && innerHigh
        ).appendingKeyPath("@count").greaterThan(0)
        let outer = CDExpression(forSubquery: .keyPath("steps"), usingIteratorVariable: "x", predicate: inner)
        #expect(try lowered(#Predicate { $0.steps.contains { $0.steps.contains { $0.done && $0.priority > 1 } } })
            == outer.appendingKeyPath("@count").greaterThan(0))
    }

    @Test func theConcreteSubclassComesBack() throws {
        let comparison = try CDComparisonPredicate(#Predicate<Errand> { $0.priority > 1 })
        #expect(comparison.predicateOperatorType == .greaterThan)
        let error = try #require(throws: CoreDataError.self) {
            try CDComparisonPredicate(#Predicate<Errand> { $0.done && $0.priority > 1 })
        }
        #expect(error.code == .invalidPredicate)
    }
}
