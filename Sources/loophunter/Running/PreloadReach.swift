import Foundation
import LoopHunterReport

/// Whether `LD_PRELOAD` can reach a program at all, checked before `run` starts it, so that a run
/// that can see nothing says so instead of reporting "no loops found" (Reliability row 19).
enum PreloadReach {
    /// A one-line explanation when the loader will not load LoopHunter into the program at
    /// `executable`; nil when it will (or when the file is not an ELF executable, such as a script,
    /// whose interpreter is what runs).
    static func problem(executable: String) -> String? {
        switch reason(executable: executable) {
        case .none: return nil
        case .staticallyLinked:
            return "\(executable) is statically linked: LD_PRELOAD cannot reach it, so LoopHunter will see nothing (link it dynamically to watch it)"
        case .setID(let kind):
            return "\(executable) is set-\(kind)-ID: the loader ignores LD_PRELOAD for it, so LoopHunter will see nothing (run a copy without the bit to watch it)"
        }
    }

    /// Why the loader will not load LoopHunter into `executable`, in a few words for `run`'s verdict
    /// (`it is statically linked`); nil when it will.
    static func shortReason(executable: String) -> String? {
        switch reason(executable: executable) {
        case .none: return nil
        case .staticallyLinked: return "it is statically linked"
        case .setID(let kind): return "it is set-\(kind)-ID, and the loader ignores LD_PRELOAD for it"
        }
    }

    private enum Reason {
        case none
        case staticallyLinked
        /// `user` or `group`
        case setID(String)
    }

    private static func reason(executable: String) -> Reason {
        guard let elf = ELFFile(path: executable) else { return .none }
        if !elf.hasInterpreter { return .staticallyLinked }
        var st = stat()
        guard stat(executable, &st) == 0 else { return .none }
        // On a file system mounted nosuid the bits do nothing: the loader keeps LD_PRELOAD.
        var fs = statvfs()
        if statvfs(executable, &fs) == 0 && fs.f_flag & UInt(ST_NOSUID) != 0 { return .none }
        let setUser = st.st_mode & S_ISUID != 0 && st.st_uid != geteuid()
        let setGroup = st.st_mode & S_ISGID != 0 && st.st_gid != getegid()
        if setUser || setGroup { return .setID(setUser ? "user" : "group") }
        return .none
    }
}
