/// A GUI toolkit whose library a process had loaded (schema 1.5), found by the library's file name.
public struct SummaryToolkit: Codable, Sendable, Equatable {
    /// `GTK 3`, `GTK 4`, `toykit`, `GTK 2`, `Qt 5`, `Qt 6`, `Tk`, `FLTK`, `SDL2`, `EFL (Elementary)`,
    /// `wxWidgets`, `Java AWT`.
    public let name: String
    /// The library's path as the process loaded it.
    public let library: String
    /// LoopHunter counts this toolkit's layouts; false: its layouts are not counted (the other
    /// detectors still work).
    public let supported: Bool

    public init(name: String, library: String, supported: Bool) {
        self.name = name
        self.library = library
        self.supported = supported
    }
}
