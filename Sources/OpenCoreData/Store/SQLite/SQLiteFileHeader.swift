import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The 100-byte header of a SQLite database file (<https://sqlite.org/fileformat.html>),
/// read with plain POSIX calls before SQLite opens the file, and checked for the damage
/// SQLite itself would read past.
struct SQLiteFileHeader {
    /// What is at a store's path.
    enum Contents {
        case missing
        /// A zero-length file: a store whose creation never started.
        case empty
        case database(SQLiteFileHeader)
    }

    static let length = 100
    private static let magic = Array("SQLite format 3\0".utf8)

    let bytes: [UInt8]
    let fileSize: Int
    let path: String

    /// Looks at `path` without changing anything: a directory, a special file or an
    /// unreadable path throws `.storeOpenFailed`, a file that is not SQLite `.notAStore`,
    /// a SQLite file shorter than its header `.storeCorrupt`.
    static func read(path: String) throws -> Contents {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return .missing }
            throw CoreDataError(.storeOpenFailed, "Cannot open the store at \(path): \(String(cString: strerror(errno))).")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            let what = info.st_mode & S_IFMT == S_IFDIR ? "a directory" : "not a regular file"
            throw CoreDataError(.storeOpenFailed, "Cannot open the store at \(path): it is \(what). It was left untouched.")
        }
        guard info.st_size > 0 else { return .empty }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CoreDataError(.storeOpenFailed, "Cannot read the store file at \(path): \(String(cString: strerror(errno))).")
        }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: length)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, length, 0) }
        guard count >= 0 else {
            throw CoreDataError(.storeOpenFailed, "Cannot read the store file at \(path): \(String(cString: strerror(errno))).")
        }
        guard count >= magic.count, Array(bytes[0..<magic.count]) == magic else {
            throw CoreDataError(.notAStore, "The file at \(path) is not a SQLite database; it was left untouched.")
        }
        guard count == length else {
            throw corrupt(path, "the file (\(count) bytes) is shorter than the 100-byte SQLite header")
        }
        return .database(SQLiteFileHeader(bytes: bytes, fileSize: Int(info.st_size), path: path))
    }

    /// The size of the file at `path` (a `-wal` beside the store), or nil when there is none.
    static func size(of path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : nil
    }

    /// The page size, 512…65536 (stored as 1 for 65536).
    var pageSize: Int {
        let stored = Int(bytes[16]) << 8 | Int(bytes[17])
        return stored == 1 ? 65536 : stored
    }

    private func uint32(at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Throws `.storeCorrupt` naming the first field that no SQLite writer produces.
    ///
    /// With `checkingSize`, also compares the file's size with the page count and the
    /// freelist fields, when the header's page count is valid (its change counter equals
    /// its version-valid-for number). Check that only while the file cannot change and
    /// no hot journal is left to restore it (see `SQLiteStore.open`).
    func validate(checkingSize: Bool) throws {
        let pageSize = pageSize
        guard pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0 else {
            throw Self.corrupt(path, "its page size \(pageSize) is not a power of two from 512 to 65536")
        }
        guard (1...2).contains(bytes[18]), (1...2).contains(bytes[19]) else {
            throw Self.corrupt(path, "its file format versions (\(bytes[18]), \(bytes[19])) are not 1 or 2")
        }
        guard pageSize - Int(bytes[20]) >= 480 else {
            throw Self.corrupt(path, "it reserves \(bytes[20]) bytes of each \(pageSize)-byte page")
        }
        guard bytes[21] == 64, bytes[22] == 32, bytes[23] == 32 else {
            throw Self.corrupt(path, "its payload fractions (\(bytes[21]), \(bytes[22]), \(bytes[23])) are not 64, 32, 32")
        }
        guard uint32(at: 44) <= 4 else { throw Self.corrupt(path, "its schema format number \(uint32(at: 44)) is above 4") }
        guard uint32(at: 56) <= 3 else { throw Self.corrupt(path, "its text encoding \(uint32(at: 56)) is not 1, 2 or 3") }
        guard bytes[72..<92].allSatisfy({ $0 == 0 }) else {
            throw Self.corrupt(path, "the header's reserved bytes 72–91 are not zero")
        }
        guard checkingSize else { return }
        guard fileSize % pageSize == 0 else {
            throw Self.corrupt(path, "its size (\(fileSize) bytes) is not a whole number of \(pageSize)-byte pages")
        }
        let pages = Int(uint32(at: 28))
        guard pages > 0, uint32(at: 24) == uint32(at: 92) else { return }
        guard fileSize >= pages * pageSize else {
            throw Self.corrupt(path, "it is \(fileSize) bytes long but its header counts \(pages) pages of \(pageSize) bytes")
        }
        let trunk = Int(uint32(at: 32)), freePages = Int(uint32(at: 36))
        guard trunk <= pages, freePages < pages, (trunk == 0) == (freePages == 0) else {
            throw Self.corrupt(path, "its freelist (first trunk page \(trunk), \(freePages) pages) does not fit its \(pages) pages")
        }
    }

    private static func corrupt(_ path: String, _ reason: String) -> CoreDataError {
        CoreDataError(.storeCorrupt, "The store at \(path) is damaged: \(reason). It was left untouched.")
    }
}
