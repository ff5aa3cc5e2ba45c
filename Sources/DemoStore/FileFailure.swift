import Foundation

/// A short, readable reason for a failed file operation ("No such file or directory",
/// "Permission denied"), taken from the POSIX error under Foundation's, so that no
/// Foundation error text leaks into the demo's messages.
public enum FileFailure {
    /// The reason `error` gives, in a few words.
    public static func reason(_ error: any Error) -> String {
        let error = error as NSError
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        switch CocoaError.Code(rawValue: error.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return String(cString: strerror(ENOENT))
        case .fileReadNoPermission, .fileWriteNoPermission: return String(cString: strerror(EACCES))
        case .fileWriteVolumeReadOnly: return String(cString: strerror(EROFS))
        default: return error.localizedDescription
        }
    }
}
