import Foundation

// MARK: - Quoted strings

extension PredicateLexer {
    /// A string in `'…'` or `"…"`, with C-style escapes:
    /// `\\ \" \' \n \r \t \0 \a \b \f \v`, `\xHH`, `\uHHHH` (surrogate pairs joined), `\UHHHHHHHH`.
    mutating func quotedString() throws -> PredicateToken.Kind {
        let start = position
        let quote = scalars[position]
        position += 1
        var result = String.UnicodeScalarView()
        while true {
            guard let scalar = peek() else { throw error("unterminated string", at: start) }
            position += 1
            if scalar == quote { return .string(String(result)) }
            if scalar != "\\" {
                result.append(scalar)
                continue
            }
            let escapeStart = position - 1
            guard let escaped = peek() else { throw error("unterminated string", at: start) }
            position += 1
            switch escaped {
            case "\\", "\"", "'": result.append(escaped)
            case "n": result.append("\n")
            case "r": result.append("\r")
            case "t": result.append("\t")
            case "0": result.append("\0")
            case "a": result.append(Unicode.Scalar(0x07))
            case "b": result.append(Unicode.Scalar(0x08))
            case "f": result.append(Unicode.Scalar(0x0C))
            case "v": result.append(Unicode.Scalar(0x0B))
            case "x": result.append(try hexScalar(digits: 2, escapeStart: escapeStart))
            case "U": result.append(try hexScalar(digits: 8, escapeStart: escapeStart))
            case "u": result.append(try utf16Scalar(escapeStart: escapeStart))
            default: throw error("unknown escape '\\\(escaped)' in string", at: escapeStart)
            }
        }
    }

    /// `\u` escape: one BMP scalar, or a high surrogate followed by `\u` and a low surrogate.
    private mutating func utf16Scalar(escapeStart: Int) throws -> Unicode.Scalar {
        let high = try hexValue(digits: 4, escapeStart: escapeStart)
        guard (0xD800...0xDBFF).contains(high) else {
            guard let scalar = Unicode.Scalar(high) else { throw error("invalid \\u escape", at: escapeStart) }
            return scalar
        }
        guard peek() == "\\", peek(offset: 1) == "u" else { throw error("unpaired surrogate in \\u escape", at: escapeStart) }
        position += 2
        let low = try hexValue(digits: 4, escapeStart: escapeStart)
        guard (0xDC00...0xDFFF).contains(low),
              let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        else { throw error("invalid surrogate pair in \\u escape", at: escapeStart) }
        return scalar
    }

    private mutating func hexScalar(digits: Int, escapeStart: Int) throws -> Unicode.Scalar {
        let value = try hexValue(digits: digits, escapeStart: escapeStart)
        guard let scalar = Unicode.Scalar(value) else { throw error("invalid character escape", at: escapeStart) }
        return scalar
    }

    private mutating func hexValue(digits: Int, escapeStart: Int) throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<digits {
            guard let scalar = peek(), let digit = scalar.properties.isASCIIHexDigit ? UInt32(String(scalar), radix: 16) : nil
            else { throw error("expected \(digits) hexadecimal digits in escape", at: escapeStart) }
            value = value << 4 | digit
            position += 1
        }
        return value
    }
}
