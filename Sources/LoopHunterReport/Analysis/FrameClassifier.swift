/// Decides whose code a frame is in, from its module path and the program's executable.
///
/// "The app" (your code, marked ▶) is the program's own modules: its executable, and the libraries
/// that are not the system's. A library under a system directory (`/usr/lib`, `/lib`, ...) is the
/// system's (libxml2, libstdc++, Mesa, ...) unless it is the program's private library: in the
/// directory the program itself is installed under (`/usr/lib/firefox-esr/libxul.so` beside
/// `/usr/lib/firefox-esr/firefox-esr`), or in a directory named after the program
/// (`/usr/lib/x86_64-linux-gnu/inkscape/libinkscape_base.so` of `/usr/bin/inkscape`). An
/// interpreter (`python3.11`, `gjs`, `perl`, ...) is the system's: the program is its script.
public struct FrameClassifier: Sendable {
    /// Library file-name prefixes counted as toolkit code, wherever they are installed.
    public var toolkitPrefixes: [String]
    /// Directories whose libraries are the system's (unless a toolkit prefix matches first, or
    /// they are the program's private ones).
    public var systemDirectories: [String]

    public static let defaultToolkitPrefixes = [
        "libgtk-", "libgdk-", "libgdk_pixbuf", "libglib-", "libgobject-", "libgio-", "libgmodule-",
        "libgthread-", "libpango", "libcairo", "libharfbuzz", "libepoxy", "libgraphene", "libfribidi",
        "libX11", "libxcb", "libXi", "libwayland", "libQt", "libSDL", "libfontconfig", "libfreetype",
        "libtoykit",
    ]

    public static let defaultSystemDirectories = [
        "/lib/", "/lib64/", "/lib32/", "/usr/lib/", "/usr/lib64/", "/usr/lib32/", "/usr/libexec/", "/opt/swift/",
    ]

    /// Executables that run a program written in another language: their frames are the runtime's.
    public static let interpreterNames: Set<String> = [
        "python", "pypy", "gjs", "gjs-console", "perl", "ruby", "node", "nodejs", "lua", "luajit", "guile",
        "tclsh", "wish", "php", "java", "mono", "dotnet", "qml", "qmlscene",
    ]

    /// The libraries that run each script language's code (``ScriptStack/language``): a native
    /// frame of one is the script's engine at work on a script function's behalf.
    public static let scriptEngineLibraries: [String: [String]] = [
        "python": ["libpython"],
        "javascript": ["libmozjs", "libgjs"],
        "qml": ["libQt5Qml", "libQt6Qml"],
    ]

    /// Whether `module` (a path or file name) is the engine of scripts in `language`.
    public static func isScriptEngine(_ module: String?, language: String) -> Bool {
        guard let module, let prefixes = scriptEngineLibraries[language] else { return false }
        let name = fileName(module)
        return prefixes.contains { name.hasPrefix($0) }
    }

    /// Functions that are the way into a program, not its code: C's start-up and `main`. Reports
    /// whose only app frames are these share nothing but the program (see ``isProgramEntry(_:in:at:)``).
    public static let programEntryFunctions: Set<String> = [
        "main", "_start", "__libc_start_main", "__libc_start_call_main", "wmain",
    ]

    /// Functions that run an event loop (or one pass of it), by name without their arguments: app
    /// code further out than one of these started the loop (`MyApp::run()` calling
    /// `QApplication::exec()`), it did not make a request the loop's callbacks made.
    public static let eventLoopFunctions: Set<String> = [
        "g_main_context_iteration", "g_main_context_dispatch", "g_main_loop_run", "g_application_run",
        "gtk_main", "gtk_main_iteration", "gtk_main_iteration_do", "gtk_dialog_run",
        "QEventLoop::exec", "QEventLoop::processEvents", "QCoreApplication::exec", "QGuiApplication::exec",
        "QApplication::exec", "QCoreApplication::processEvents", "QCoreApplication::sendPostedEvents",
        "QCoreApplicationPrivate::sendPostedEvents", "QDialog::exec", "QEventDispatcherGlib::processEvents",
        "QEventDispatcherUNIX::processEvents", "tk_loop_run", "tk_source_dispatch",
    ]

    /// Whether `frame` runs an event loop (``eventLoopFunctions``).
    public static func isEventLoop(_ frame: SymbolizedFrame) -> Bool {
        guard let function = frame.primary?.function else { return false }
        let name = function.firstIndex(of: "(").map { String(function[..<$0]) } ?? function
        return eventLoopFunctions.contains(name)
    }

    public init(toolkitPrefixes: [String] = FrameClassifier.defaultToolkitPrefixes,
                systemDirectories: [String] = FrameClassifier.defaultSystemDirectories) {
        self.toolkitPrefixes = toolkitPrefixes
        self.systemDirectories = systemDirectories
    }

    /// The origin of a frame in `module`, knowing nothing of the program (a module outside the
    /// system directories is the app's).
    public func origin(ofModule module: String?) -> FrameOrigin {
        origin(ofModule: module, executable: nil)
    }

    /// The origin of a frame in `module` of a process running `executable` (the report's
    /// `process.executable`).
    public func origin(ofModule module: String?, executable: String?) -> FrameOrigin {
        guard let module, !module.isEmpty else { return .unknown }
        let name = Self.fileName(module)
        if name.hasPrefix("libloophunter") { return .loophunter }
        if toolkitPrefixes.contains(where: { name.hasPrefix($0) }) { return .toolkit }
        if name.hasPrefix("ld-linux") || name.hasPrefix("linux-vdso") || name.hasPrefix("libc.so") { return .system }
        if let executable, !executable.isEmpty {
            if Self.isInterpreter(executable) { return module == executable ? .system : systemOrApp(module, program: nil) }
            if module == executable { return .app }
            return systemOrApp(module, program: executable)
        }
        return systemOrApp(module, program: nil)
    }

    /// The origin of a script frame (``ScriptFrame``) by its file: the bindings' own code (PyGObject's
    /// `gi` package, GJS's built-in modules) and Qt's own QML modules (installed under
    /// `.../qt5/qml/` or `.../qt6/qml/`, or compiled into Qt as `qrc:/qt-project.org/...`) are the
    /// toolkit's; the language's standard library
    /// (`/usr/lib/python3.11/...` outside its `site-packages`, `<frozen ...>` modules) the system's;
    /// any other file the app's, installed packages included (Debian installs a Python
    /// application's own code under `/usr/lib/python3/dist-packages/APP/`).
    public func origin(ofScriptFile file: String) -> FrameOrigin {
        if file.hasPrefix("resource:///org/gnome/gjs/") || file.contains("-packages/gi/") { return .toolkit }
        if file.hasPrefix("qrc:/qt-project.org/") || file.hasPrefix("qrc:///qt-project.org/")
            || file.contains("/qt5/qml/") || file.contains("/qt6/qml/") {
            return .toolkit
        }
        if file.hasPrefix("<") { return .system }
        if let root = systemDirectories.first(where: { file.hasPrefix($0) }) {
            let below = Self.components(of: file, below: root)
            if below.count > 1, below[0].hasPrefix("python"), below[0].contains("."),
               below[1] != "site-packages", below[1] != "dist-packages" {
                return .system
            }
        }
        return .app
    }

    /// Whether `executable` is an interpreter (`python3.11`, `gjs`, `perl5.36`, ...).
    public static func isInterpreter(_ executable: String) -> Bool {
        let name = fileName(executable)
        let base = withoutVersion(name)
        return interpreterNames.contains(name) || interpreterNames.contains(base)
            || interpreterNames.contains(trailingDigitsRemoved(base))
    }

    /// Whether `frame` (at `index` in `stack`, innermost first) is the program's entry rather than
    /// its code: `main`, `_start` and C's start-up by name; without a name, an app frame called from
    /// the C library's start-up (a stripped executable's `main`: every frame further out is the C
    /// library's, or the executable's `_start`) or the outermost frame when the C library called
    /// into it (`_start`).
    public static func isProgramEntry(_ frame: SymbolizedFrame, in stack: [SymbolizedFrame], at index: Int) -> Bool {
        if let function = frame.primary?.function { return programEntryFunctions.contains(function) }
        guard frame.origin == .app else { return false }
        let outer = stack[(index + 1)...]
        guard let next = outer.first else {
            // The outermost frame: `_start` when the C library's start-up is just inside it.
            return index > 0 && isCLibrary(stack[index - 1])
        }
        guard isCLibrary(next) else { return false }
        let further = outer.dropFirst()
        return further.enumerated().allSatisfy { offset, outerFrame in
            isCLibrary(outerFrame) || (outerFrame.origin == .app && offset == further.count - 1)
        }
    }

    private static func isCLibrary(_ frame: SymbolizedFrame) -> Bool {
        frame.moduleName?.hasPrefix("libc.so") == true
    }

    /// A module under a system directory is the system's unless it is one of the program's own.
    private func systemOrApp(_ module: String, program: String?) -> FrameOrigin {
        guard let system = systemDirectories.first(where: { module.hasPrefix($0) }) else { return .app }
        guard let program else { return .system }
        return Self.isPrivate(module: module, under: system, program: program, systemDirectories: systemDirectories)
            ? .app : .system
    }

    /// A library of `program` installed in a system directory: under the directory the program
    /// itself lives in (below a system directory), or under a directory named after it, with or
    /// without the multiarch directory (`/usr/lib/<app>/`, `/usr/lib/x86_64-linux-gnu/<app>/`).
    static func isPrivate(module: String, under system: String, program: String, systemDirectories: [String]) -> Bool {
        let parts = components(of: module, below: system)
        guard parts.count >= 2 else { return false } // directly in the system directory
        let names = Set([fileName(program), withoutVersion(fileName(program))])
        if names.contains(parts[0]) { return true }
        if isMultiarch(parts[0]), parts.count >= 3, names.contains(parts[1]) { return true }
        // The program's own installation directory below a system directory.
        if let programSystem = systemDirectories.first(where: { program.hasPrefix($0) }) {
            let own = components(of: program, below: programSystem)
            let depth = !own.isEmpty && isMultiarch(own[0]) ? 2 : 1
            if own.count > depth, programSystem == system, parts.count > depth, Array(parts.prefix(depth)) == Array(own.prefix(depth)) {
                return true
            }
        }
        return false
    }

    /// `x86_64-linux-gnu`, `aarch64-linux-gnu`, `i386-linux-gnu`, ...
    private static func isMultiarch(_ component: String) -> Bool {
        component.contains("-linux-")
    }

    /// The path components of `path` after `directory` (which ends with `/`).
    private static func components(of path: String, below directory: String) -> [String] {
        path.dropFirst(directory.count).split(separator: "/").map(String.init)
    }

    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// `gimp-2.10` → `gimp`, `python3.11` → `python3`, `perl5.36` → `perl5`: cut at the first `-`
    /// or `.` followed by a digit.
    static func withoutVersion(_ name: String) -> String {
        let chars = Array(name)
        for i in chars.indices.dropLast() where (chars[i] == "-" || chars[i] == ".") && chars[i + 1].isNumber && i > 0 {
            return String(chars[..<i])
        }
        return name
    }

    /// `python3` → `python` (interpreters only: `gtk4-demo` keeps its name).
    private static func trailingDigitsRemoved(_ name: String) -> String {
        var s = Substring(name)
        while let last = s.last, last.isNumber { s = s.dropLast() }
        return s.isEmpty ? name : String(s)
    }
}
