import Foundation
import LoopHunterReport

/// Whether `LD_PRELOAD` can reach a program at all, checked before `run` starts it, so that a run
/// that can see nothing says so instead of reporting "no loops found" (Reliability row 19).
enum PreloadReach {
    /// A one-line explanation when the loader will not load LoopHunter into the program at
    /// `executable`; nil when it will (or when the file is not an ELF executable, such as a script,
    /// whose interpreter is what runs).
    static func problem(executable: String) -> String? {
        guard let elf = ELFFile(path: executable) else { return nil }
        if !elf.hasInterpreter {
            return "\(executable) is statically linked: LD_PRELOAD cannot reach it, so LoopHunter will see nothing (link it dynamically to watch it)"
        }
        var st = stat()
        guard stat(executable, &st) == 0 else { return nil }
        // On a file system mounted nosuid the bits do nothing: the loader keeps LD_PRELOAD.
        var fs = statvfs()
        if statvfs(executable, &fs) == 0 && fs.f_flag & UInt(ST_NOSUID) != 0 { return nil }
        let setUser = st.st_mode & S_ISUID != 0 && st.st_uid != geteuid()
        let setGroup = st.st_mode & S_ISGID != 0 && st.st_gid != getegid()
        if setUser || setGroup {
            return "\(executable) is set-\(setUser ? "user" : "group")-ID: the loader ignores LD_PRELOAD for it, so LoopHunter will see nothing (run a copy without the bit to watch it)"
        }
        return nil
    }
}
