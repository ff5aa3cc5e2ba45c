import Foundation
import Testing
@testable import OpenCoreData

/// `FUNCTION(target, 'selector', arguments…)` through `CDExpression.registerFunction`.
/// Each test registers its own selectors (tests run in parallel and the registry is global).
@Suite struct CustomFunctionTests {
    private struct Refusal: Error {}

    private func unique(_ name: String) -> String { "\(name)_\(UUID().uuidString):" }

    private func function(_ selector: String, _ target: CDExpression, _ arguments: CDExpression...) -> CDExpression {
        CDExpression(.customFunction(target: target, selector: selector, arguments: arguments))
    }

    @Test func aRegisteredFunctionReceivesPlainValues() throws {
        let selector = unique("repeat")
        CDExpression.registerFunction(selector) { target, arguments in
            guard let text = target as? String, let times = arguments.first as? Int64 else { return nil }
            return String(repeating: text, count: Int(times))
        }
        defer { CDExpression.unregisterFunction(selector) }
        let row: [String: Any] = ["word": "ab"]
        #expect(try valueOf(function(selector, .keyPath("word"), .constant(3)), row) as? String == "ababab")
        #expect(try holds(function(selector, .keyPath("word"), .constant(2)).equalTo("abab"), row))
        #expect(try valueOf(function(selector, .keyPath("missing"), .constant(2)), row) == nil)
    }

    @Test func collectionsArriveAsArrays() throws {
        let selector = unique("countAll")
        CDExpression.registerFunction(selector) { target, arguments in
            Int64((target as? [Any?])?.count ?? -1) + Int64((arguments.first as? [Any?])?.count ?? -100)
        }
        defer { CDExpression.unregisterFunction(selector) }
        let value = try valueOf(function(selector, .keyPath("list"), CDExpression(forAggregate: [.constant(1), .constant(2)])), ["list": [1, 2, 3]])
        #expect(value as? Int64 == 5)
    }

    @Test func anUnregisteredSelectorIsAnErrorNamingIt() throws {
        let selector = unique("missing")
        let error = try #require(throws: CoreDataError.self) { try valueOf(function(selector, .evaluatedObject), [String: Any]()) }
        #expect(error.code == .invalidPredicate)
        #expect(error.key == selector && error.message.contains(selector))
        CDExpression.registerFunction(selector) { _, _ in 1 }
        #expect(try valueOf(function(selector, .evaluatedObject)) as? Int == 1)
        CDExpression.unregisterFunction(selector)
        #expect(throws: CoreDataError.self) { try valueOf(function(selector, .evaluatedObject)) }
    }

    @Test func errorsThrownByAFunctionAreTyped() throws {
        let refusing = unique("refuse")
        let typed = unique("typed")
        CDExpression.registerFunction(refusing) { _, _ in throw Refusal() }
        CDExpression.registerFunction(typed) { _, _ in throw CoreDataError(.invalidPredicate, "mine", key: "k") }
        defer { CDExpression.unregisterFunction(refusing); CDExpression.unregisterFunction(typed) }
        let wrapped = try #require(throws: CoreDataError.self) { try valueOf(function(refusing, .evaluatedObject)) }
        #expect(wrapped.code == .invalidPredicate && wrapped.message.contains(refusing))
        let passed = try #require(throws: CoreDataError.self) { try valueOf(function(typed, .evaluatedObject)) }
        #expect(passed.message == "mine" && passed.key == "k")
        #expect(!function(refusing, .evaluatedObject).equalTo(1).evaluate(with: nil))
    }

    @Test func registeringAgainReplacesTheFunction() throws {
        let selector = unique("version")
        CDExpression.registerFunction(selector) { _, _ in "one" }
        CDExpression.registerFunction(selector) { _, _ in "two" }
        defer { CDExpression.unregisterFunction(selector) }
        #expect(try valueOf(function(selector, .evaluatedObject)) as? String == "two")
    }

    @Test func registrationIsThreadSafe() async throws {
        let prefix = unique("concurrent")
        await withTaskGroup(of: Void.self) { group in
            for number in 0..<64 {
                group.addTask {
                    CDExpression.registerFunction("\(prefix)\(number)") { _, _ in Int64(number) }
                    _ = try? valueOf(CDExpression(.customFunction(target: .evaluatedObject, selector: "\(prefix)\(number)", arguments: [])))
                }
            }
        }
        for number in 0..<64 {
            #expect(try valueOf(function("\(prefix)\(number)", .evaluatedObject)) as? Int64 == Int64(number))
            CDExpression.unregisterFunction("\(prefix)\(number)")
        }
    }
}
