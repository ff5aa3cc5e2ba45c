/// Random tokens (session ids, CSRF tokens, tab ids) and their comparison in constant time.
enum CSRFToken {
    /// `bytes` random bytes from the system's generator, as lowercase hex.
    static func random(bytes: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        var text = ""
        text.reserveCapacity(bytes * 2)
        for _ in 0..<bytes {
            let byte = UInt8.random(in: 0...255, using: &generator)
            text += String(byte >> 4, radix: 16) + String(byte & 0xF, radix: 16)
        }
        return text
    }

    /// Whether `given` equals `expected`, taking the same time whichever byte differs, so
    /// that the time of a refusal tells nothing about the token.
    static func matches(_ given: String?, _ expected: String) -> Bool {
        guard let given else { return false }
        let a = Array(given.utf8), b = Array(expected.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<b.count {
            difference |= b[index] ^ (index < a.count ? a[index] : 0)
        }
        return difference == 0
    }
}
