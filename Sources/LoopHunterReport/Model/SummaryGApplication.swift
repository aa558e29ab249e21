/// The GApplication a process ran (schema 1.5): its id, and whether the process was its primary
/// instance or a remote one that handed its command line to an instance already running on the
/// D-Bus session and ended (then LoopHunter watched nothing of the application in it).
public struct SummaryGApplication: Codable, Sendable, Equatable {
    /// The application id (`org.gnome.gedit`); nil when it has none.
    public let id: String?
    /// True: handed off to the running instance; false: the primary instance; nil: not registered
    /// yet when the summary was written.
    public let remote: Bool?

    public init(id: String?, remote: Bool?) {
        self.id = id
        self.remote = remote
    }
}
