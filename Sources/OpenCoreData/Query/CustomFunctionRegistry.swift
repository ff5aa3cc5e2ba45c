import Foundation

extension CDExpression {
    /// A function `FUNCTION(target, 'selector', arguments…)` calls: it receives the target's
    /// value and the arguments' values (collections as `[Any?]`) and returns the result.
    public typealias CustomFunction = @Sendable (_ target: Any?, _ arguments: [Any?]) throws -> Any?

    /// Makes `FUNCTION(target, 'selector', …)` call `body` when predicates are evaluated in
    /// memory — on Apple platforms such a function is a method of the target's class; here
    /// it is a closure registered by its selector name. Replaces a function already
    /// registered under `selector`. Thread-safe.
    ///
    /// For example:
    /// ```swift
    /// CDExpression.registerFunction("initials") { target, _ in
    ///     (target as? String)?.split(separator: " ").compactMap(\.first).map(String.init).joined()
    /// }
    /// ```
    ///
    /// Stores that run predicates in SQL cannot call Swift closures: a fetch from the
    /// SQLite store whose predicate uses `FUNCTION` throws `.invalidPredicate`.
    public static func registerFunction(_ selector: String, _ body: @escaping CustomFunction) {
        CustomFunctionRegistry.functions.withLock { $0[selector] = body }
    }

    /// Removes the function registered under `selector`, if any.
    public static func unregisterFunction(_ selector: String) {
        CustomFunctionRegistry.functions.withLock { $0[selector] = nil }
    }
}

/// The functions registered with `CDExpression.registerFunction(_:_:)`, by selector.
enum CustomFunctionRegistry {
    static let functions = SanitizedMutex<[String: CDExpression.CustomFunction]>([:])

    /// Calls the function registered under `selector`.
    ///
    /// - Throws: `.invalidPredicate` naming `selector` when nothing is registered under it;
    ///   the function's own `CoreDataError`, or any other error it throws wrapped in an
    ///   `.invalidPredicate` error.
    static func call(_ selector: String, target: Any?, arguments: [Any?]) throws -> Any? {
        guard let function = functions.withLock({ $0[selector] }) else {
            throw CoreDataError(
                .invalidPredicate,
                "No function is registered for FUNCTION(…, '\(selector)'); register one with CDExpression.registerFunction",
                key: selector
            )
        }
        do {
            return try function(EvaluatedCollection.plain(target), arguments.map(EvaluatedCollection.plain))
        } catch let error as CoreDataError {
            throw error
        } catch {
            throw CoreDataError(.invalidPredicate, "FUNCTION(…, '\(selector)') failed: \(error)", key: selector)
        }
    }
}
