import Foundation

/// What an expression is evaluated against: the object (`SELF`), the variables bound so
/// far (substitution variables, `SUBQUERY` iterators), and where on the stack the
/// evaluation started, so that a tree nested too deeply fails with an error instead of
/// overflowing the stack.
struct EvaluationScope {
    /// The object a key path is read from and `SELF` stands for.
    let object: Any?
    /// Values of `$variables` by name (without `$`).
    let variables: [String: Any?]
    /// The stack address where the evaluation started.
    private let stackStart: UInt

    /// The most stack one evaluation may use: half of a 512 KiB secondary thread's stack.
    /// Measured rather than counted in levels, because a level's frames differ several-fold
    /// between node kinds and between debug and release builds. In a debug build it allows
    /// about 300 nested `NOT`s, 130 nested function calls or 45 nested `SUBQUERY`s;
    /// a release build several times more.
    static let stackBudget: UInt = 256 * 1024

    init(object: Any?, variables: [String: Any?] = [:]) {
        self.init(object: object, variables: variables, stackStart: Self.stackAddress())
    }

    private init(object: Any?, variables: [String: Any?], stackStart: UInt) {
        self.object = object
        self.variables = variables
        self.stackStart = stackStart
    }

    /// Checks, before evaluating a nested node, that the evaluation has stack to spare.
    ///
    /// - Throws: `.invalidPredicate` once the evaluation has used more than `stackBudget`.
    func checkStack() throws {
        let here = Self.stackAddress()
        let used = stackStart > here ? stackStart - here : here - stackStart
        guard used <= Self.stackBudget else {
            throw CoreDataError(
                .invalidPredicate,
                "The predicate is nested too deeply to evaluate (more than \(Self.stackBudget / 1024) KiB of stack)"
            )
        }
    }

    /// The scope with `name` bound to `value` (a `SUBQUERY` iteration).
    func binding(_ name: String, to value: Any?) -> EvaluationScope {
        var variables = variables
        variables[name] = .some(value)
        return EvaluationScope(object: object, variables: variables, stackStart: stackStart)
    }

    /// The value of `$name`.
    ///
    /// - Throws: `.invalidPredicate` naming the variable when it is not bound.
    func value(ofVariable name: String) throws -> Any? {
        guard let bound = variables[name] else {
            throw CoreDataError(
                .invalidPredicate,
                "The variable $\(name) has no value; substitute it (withSubstitutionVariables) or bind it before evaluating",
                key: name
            )
        }
        return bound
    }

    /// The address of a local in the caller's frame: where the stack is now.
    @inline(never)
    private static func stackAddress() -> UInt {
        var marker: UInt8 = 0
        return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    }
}
