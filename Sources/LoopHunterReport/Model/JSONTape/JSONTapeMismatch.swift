/// The fast report path cannot decode a file: it is not exactly the JSON the preload writes (a
/// missing or repeated field, a value of another type, an unusual number or string). The caller
/// then decodes the file with `JSONDecoder`, which accepts what it always did and explains what
/// it refuses.
struct JSONTapeMismatch: Error {}
