import Foundation

// MARK: - Where stores go by default

extension PersistentContainer {
    /// `defaultDirectoryURL()` for the given environment and program name (tests pass
    /// their own rather than change the process's). Without `HOME`, the user database's
    /// home folder is used.
    package static func defaultDirectoryURL(environment: [String: String], processName: String) -> URL {
        dataHome(environment: environment).appendingPathComponent(processName, isDirectory: true)
    }

    /// `$XDG_DATA_HOME`, or `~/.local/share`.
    private static func dataHome(environment: [String: String]) -> URL {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? userDatabaseHome()
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".local", isDirectory: true)
            .appendingPathComponent("share", isDirectory: true)
    }

    /// The current user's home folder from the user database (`getpwuid`), or `/` when the
    /// user has no entry (a container running as an unknown uid).
    private static func userDatabaseHome() -> String {
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return "/" }
        let home = String(cString: directory)
        return home.isEmpty ? "/" : home
    }
}
