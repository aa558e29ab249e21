import Foundation

package enum FilePermissions {
    /// The permission bits of `path` itself (not of a symlink's target); -1 when it is missing.
    package static func mode(_ path: String) -> Int {
        var st = stat()
        return lstat(path, &st) == 0 ? Int(st.st_mode & 0o7777) : -1
    }
}
