import Foundation

/// Splits a predicate format string into tokens. Hand-written, one pass, no recursion.
struct PredicateLexer {
    let scalars: [Unicode.Scalar]
    let format: String
    /// The index in `scalars` of the next character to read.
    var position = 0

    init(_ format: String) {
        self.format = format
        self.scalars = Array(format.unicodeScalars)
    }

    /// Every token of the input, ending with `.end`.
    static func tokenize(_ format: String) throws -> [PredicateToken] {
        var lexer = PredicateLexer(format)
        var tokens: [PredicateToken] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.isEnd { return tokens }
        }
    }

    // MARK: - Tokens

    private mutating func next() throws -> PredicateToken {
        while let scalar = peek(), scalar.properties.isWhitespace { position += 1 }
        let start = position
        guard let scalar = peek() else { return PredicateToken(kind: .end, offset: start, text: "") }
        let kind: PredicateToken.Kind
        switch scalar {
        case "0"..."9": kind = try number()
        case "\"", "'": kind = try quotedString()
        case "%": kind = try formatSpecifier()
        case "$":
            position += 1
            guard let name = identifier() else { throw error("'$' must be followed by a variable name", at: start) }
            kind = .variable(name)
        case "#":
            position += 1
            guard let name = identifier() else { throw error("'#' must be followed by a key name", at: start) }
            kind = .escapedIdentifier(name)
        case _ where Self.isIdentifierStart(scalar):
            let word = identifier() ?? ""
            if isAtSelectorColon {
                kind = .selector(selector(startingWith: word))
            } else {
                kind = PredicateKeyword.named(word).map { .keyword($0) } ?? .identifier(word)
            }
        default:
            kind = .symbol(try symbol())
        }
        return PredicateToken(kind: kind, offset: start, text: text(from: start))
    }

    private mutating func symbol() throws -> PredicateSymbol {
        let start = position
        let first = scalars[position]
        let second = position + 1 < scalars.count ? scalars[position + 1] : nil
        if let second, let symbol = Self.twoCharacterSymbols[String(first) + String(second)] {
            position += 2
            return symbol
        }
        guard let symbol = Self.oneCharacterSymbols[first] else {
            throw error("unexpected character '\(first)'", at: start)
        }
        position += 1
        return symbol
    }

    private static let twoCharacterSymbols: [String: PredicateSymbol] = [
        "==": .equal, "!=": .notEqual, "<>": .notEqual, "<=": .lessOrEqual, "=<": .lessOrEqual,
        ">=": .greaterOrEqual, "=>": .greaterOrEqual, "&&": .andAnd, "||": .orOr, "**": .power, ":=": .assign,
    ]

    private static let oneCharacterSymbols: [Unicode.Scalar: PredicateSymbol] = [
        "(": .leftParen, ")": .rightParen, "{": .leftBrace, "}": .rightBrace, "[": .leftBracket,
        "]": .rightBracket, ",": .comma, ".": .dot, "@": .at, "=": .equal, "<": .less, ">": .greater,
        "!": .bang, "+": .plus, "-": .minus, "*": .star, "/": .slash,
    ]

    // MARK: - Identifiers

    private static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isAlphabetic
    }

    private static func isIdentifierContinuation(_ scalar: Unicode.Scalar) -> Bool {
        isIdentifierStart(scalar) || scalar.properties.generalCategory == .decimalNumber
    }

    /// An identifier at the current position, or `nil` (consuming nothing).
    private mutating func identifier() -> String? {
        guard let first = peek(), Self.isIdentifierStart(first) else { return nil }
        let start = position
        while let scalar = peek(), Self.isIdentifierContinuation(scalar) { position += 1 }
        return text(from: start)
    }

    /// Whether the next character is a `:` that continues a selector (not the `:=` operator).
    private var isAtSelectorColon: Bool { peek() == ":" && peek(offset: 1) != "=" }

    /// `word:` and any further `part:` pieces: a function name such as `add:to:`.
    private mutating func selector(startingWith word: String) -> String {
        var name = word
        while isAtSelectorColon {
            position += 1
            name += ":"
            guard let part = identifier() else { break }
            name += part
        }
        return name
    }

    // MARK: - Numbers

    private mutating func number() throws -> PredicateToken.Kind {
        let start = position
        if scalars[position] == "0", let marker = peek(offset: 1), let radix = Self.radix(marker) {
            position += 2
            let digitsStart = position
            while let scalar = peek(), Self.isIdentifierContinuation(scalar) { position += 1 }
            let digits = text(from: digitsStart)
            guard !digits.isEmpty, let value = UInt64(digits, radix: radix) else {
                throw error("invalid or too large number '\(text(from: start))'", at: start)
            }
            return .integer(value)
        }
        var isFloating = false
        skipDigits()
        if peek() == ".", let next = peek(offset: 1), next.properties.generalCategory == .decimalNumber, next.isASCII {
            isFloating = true
            position += 1
            skipDigits()
        }
        if let marker = peek(), marker == "e" || marker == "E" {
            var lookahead = 1
            if let sign = peek(offset: 1), sign == "+" || sign == "-" { lookahead = 2 }
            if let digit = peek(offset: lookahead), ("0"..."9").contains(digit) {
                isFloating = true
                position += lookahead
                skipDigits()
            }
        }
        if let trailing = peek(), Self.isIdentifierContinuation(trailing) {
            throw error("invalid number '\(text(from: start))\(trailing)'", at: start)
        }
        let literal = text(from: start)
        if !isFloating, let value = UInt64(literal) { return .integer(value) }
        guard let value = Double(literal) else { throw error("invalid number '\(literal)'", at: start) }
        return .double(value)
    }

    private static func radix(_ marker: Unicode.Scalar) -> Int? {
        switch marker {
        case "x", "X": return 16
        case "o", "O": return 8
        case "b", "B": return 2
        default: return nil
        }
    }

    private mutating func skipDigits() {
        while let scalar = peek(), ("0"..."9").contains(scalar) { position += 1 }
    }

    // MARK: - Format specifiers

    private mutating func formatSpecifier() throws -> PredicateToken.Kind {
        let start = position
        position += 1
        switch peek() {
        case "@": position += 1; return .formatSpecifier(.object)
        case "K": position += 1; return .formatSpecifier(.keyPath)
        default: break
        }
        while let scalar = peek(), "hlqLzjt".unicodeScalars.contains(scalar) { position += 1 }
        guard let conversion = peek(), "diouxXfFeEgGcsSaA".unicodeScalars.contains(conversion) else {
            throw error("unknown format specifier '\(text(from: start))'", at: start)
        }
        position += 1
        return .formatSpecifier(.printf(text(from: start)))
    }

    // MARK: - Helpers

    func peek(offset: Int = 0) -> Unicode.Scalar? {
        position + offset < scalars.count ? scalars[position + offset] : nil
    }

    private func text(from start: Int) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[start..<position])
        return String(view)
    }

    func error(_ problem: String, at offset: Int) -> CoreDataError {
        PredicateSyntaxError.make(problem, offset: offset, format: format)
    }
}
