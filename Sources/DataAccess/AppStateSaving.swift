/// When a `DALService` saves the pending changes of its main and root contexts without
/// being asked: Linux's stand-in for Skopelos' AppStateReactor, which saves when an iOS
/// app resigns active, enters the background or terminates.
public enum AppStateSaving: Sendable {
    /// Save on SIGTERM, SIGINT and SIGHUP, then end the process as that signal would have
    /// (its default action restored, re-raised with `kill(getpid(), signal)`); and save at
    /// normal exit (`exit()` included). The default for SQLite stacks. A signal the
    /// process already ignores (e.g. SIGHUP under `nohup`) or already handles is left
    /// alone.
    case signalsAndExit
    /// Save at normal exit only, for hosts that own their signals (a server on
    /// swift-service-lifecycle: add `DALService.lifecycleService` to its `ServiceGroup`).
    case exitOnly
    /// Never save by itself. The default for in-memory stacks.
    case off
}
