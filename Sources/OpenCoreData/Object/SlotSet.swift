import Foundation

/// A compact set of slot numbers (a bitmask): the first 64 inline, the rest in an array.
/// Iterates in ascending order without allocating; hashable, so a set of changed slots
/// can key a cache of UPDATE statements.
struct SlotSet: Sequence, Hashable {
    private var low: UInt64 = 0
    private var high: [UInt64] = []

    init() {}

    init(_ slots: some Sequence<Int>) {
        for slot in slots { insert(slot) }
    }

    var isEmpty: Bool { low == 0 && high.allSatisfy { $0 == 0 } }

    mutating func insert(_ slot: Int) {
        if slot < 64 { low |= 1 << UInt64(slot); return }
        let word = (slot >> 6) - 1
        while high.count <= word { high.append(0) }
        high[word] |= 1 << UInt64(slot & 63)
    }

    func contains(_ slot: Int) -> Bool {
        if slot < 64 { return low & (1 << UInt64(slot)) != 0 }
        let word = (slot >> 6) - 1
        return word < high.count && high[word] & (1 << UInt64(slot & 63)) != 0
    }

    mutating func remove(_ slot: Int) {
        if slot < 64 { low &= ~(1 << UInt64(slot)); return }
        let word = (slot >> 6) - 1
        if word < high.count { high[word] &= ~(1 << UInt64(slot & 63)) }
    }

    mutating func removeAll() {
        low = 0
        high.removeAll()
    }

    /// The slots in both sets.
    func intersection(_ other: SlotSet) -> SlotSet {
        var result = SlotSet()
        result.low = low & other.low
        if !high.isEmpty && !other.high.isEmpty {
            result.high = zip(high, other.high).map { $0 & $1 }
            while result.high.last == 0 { result.high.removeLast() }
        }
        return result
    }

    static func == (lhs: SlotSet, rhs: SlotSet) -> Bool {
        lhs.low == rhs.low && lhs.significantHigh == rhs.significantHigh
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(low)
        hasher.combine(significantHigh)
    }

    /// `high` without trailing empty words, so equal sets compare and hash alike.
    private var significantHigh: ArraySlice<UInt64> {
        var end = high.count
        while end > 0 && high[end - 1] == 0 { end -= 1 }
        return high[..<end]
    }

    func makeIterator() -> Iterator { Iterator(set: self) }

    /// Walks the set bits word by word, lowest first.
    struct Iterator: IteratorProtocol {
        let set: SlotSet
        var word = 0
        var bits: UInt64

        init(set: SlotSet) {
            self.set = set
            bits = set.low
        }

        mutating func next() -> Int? {
            while bits == 0 {
                guard word < set.high.count else { return nil }
                bits = set.high[word]
                word += 1
            }
            let bit = bits.trailingZeroBitCount
            bits &= bits - 1
            return word * 64 + bit
        }
    }
}
