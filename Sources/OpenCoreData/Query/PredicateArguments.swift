import Foundation

// MARK: - Format arguments

extension PredicateParser {
    /// The expression for a `%` specifier, taking the next argument:
    /// `%@` a constant, `%K` a key path, printf-style numbers and strings a checked constant
    /// (`%d %i %ld %lld %u %x %f %lf …` a number, `%s %S` a string, `%c %C` one character).
    mutating func substitute(_ specifier: PredicateFormatSpecifier, at tokenIndex: Int) throws -> CDExpression {
        let token = tokens[tokenIndex]
        guard nextArgument < arguments.count else {
            throw error("missing argument for \(PredicateSyntaxError.describe(token)) (\(arguments.count) given)", at: tokenIndex)
        }
        let argument = CDValue.flattenOptional(arguments[nextArgument])
        let position = nextArgument + 1
        nextArgument += 1
        switch specifier {
        case .keyPath:
            guard let path = (argument as? String) ?? (argument as? Substring).map(String.init), !path.isEmpty else {
                throw error("argument \(position) for '%K' must be a non-empty key path string, not \(describe(argument))", at: tokenIndex)
            }
            return .keyPath(path)
        case .object:
            return .constant(try convert(argument, position: position, at: tokenIndex))
        case .printf(let text) where text.hasSuffix("c") || text.hasSuffix("C"):
            let value = try convert(argument, position: position, at: tokenIndex)
            guard let character = Self.character(value) else {
                throw error(
                    "argument \(position) for '\(text)' must be one character or a character code, not \(describe(argument))",
                    at: tokenIndex
                )
            }
            return .constant(.string(character))
        case .printf(let text):
            let value = try convert(argument, position: position, at: tokenIndex)
            let wantsString = text.hasSuffix("s") || text.hasSuffix("S")
            let fits = wantsString ? Self.isString(value) : value.isNumeric
            guard fits else {
                throw error(
                    "argument \(position) for '\(text)' must be a \(wantsString ? "string" : "number"), not \(describe(argument))",
                    at: tokenIndex
                )
            }
            return .constant(value)
        }
    }

    private func convert(_ argument: Any?, position: Int, at tokenIndex: Int) throws -> CDValue {
        let token = tokens[tokenIndex]
        do {
            return try CDValue(argument: argument)
        } catch let failure as CoreDataError {
            throw error("argument \(position) for \(PredicateSyntaxError.describe(token)): \(failure.message)", at: tokenIndex)
        }
    }

    /// The one-character string a `%c` argument stands for: a one-character string, or a
    /// Unicode code point.
    private static func character(_ value: CDValue) -> String? {
        switch value {
        case .string(let text) where text.count == 1:
            return text
        case .int64(let code):
            return UInt32(exactly: code).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        default:
            return nil
        }
    }

    private static func isString(_ value: CDValue) -> Bool {
        if case .string = value { return true }
        return false
    }

    private func describe(_ argument: Any?) -> String {
        guard let argument else { return "nil" }
        return "a \(type(of: argument))"
    }
}
