/// Why `run` (and `doctor`) found no usable libloophunter.so, in words for the person at the
/// terminal (see ``PreloadLocator``).
struct PreloadMissing: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
