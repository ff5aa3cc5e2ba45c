/// Where the web app listens, and the limits it keeps.
public struct WebAppConfiguration: Sendable {
    /// The address to bind: loopback by default, so nothing beyond this machine reaches it.
    public var host: String
    /// The port; 0 picks a free one (the real one is reported once the server runs).
    public var port: Int
    /// The largest form body accepted, in bytes (a text field is at most a few hundred).
    public var maxFormSize: Int
    /// The largest upload accepted, in bytes: a 4 MiB screenshot and its form.
    public var maxUploadSize: Int
    /// How many browser sessions are kept at once; the least recently used one goes first.
    public var maxSessions: Int
    /// How many tabs (each a context and an undo history) one session keeps.
    public var maxTabsPerSession: Int

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        maxFormSize: Int = 64 * 1024,
        maxUploadSize: Int = 4 * 1024 * 1024 + 64 * 1024,
        maxSessions: Int = 128,
        maxTabsPerSession: Int = 8
    ) {
        self.host = host
        self.port = port
        self.maxFormSize = maxFormSize
        self.maxUploadSize = maxUploadSize
        self.maxSessions = maxSessions
        self.maxTabsPerSession = maxTabsPerSession
    }

    /// Whether `host` reaches beyond this machine (anything but a loopback name or address).
    public static func isLoopback(_ host: String) -> Bool {
        ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host.lowercased()) || host.hasPrefix("127.")
    }
}
