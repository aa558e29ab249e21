/// Whose code a stack frame is in. The app's own frames are what a user can fix; grouping and
/// code-scanning locations use them.
public enum FrameOrigin: String, Sendable, Codable {
    case app
    /// A GUI toolkit or its stack (GTK, GLib, Pango, Cairo, X11, toykit, ...).
    case toolkit
    /// The C library, the dynamic loader, other libraries of the system.
    case system
    /// LoopHunter itself.
    case loophunter
    /// No module known.
    case unknown
}
