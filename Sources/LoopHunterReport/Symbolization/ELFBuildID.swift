import Foundation

/// Reads the GNU build-id of an ELF file on disk (the `NT_GNU_BUILD_ID` note), to check that a
/// module is the very file that ran before its debug information is trusted.
public enum ELFBuildID {
    /// The build-id as lower-case hex; nil when the file is not a 64-bit little-endian ELF file or
    /// has no build-id note. Reads the header, the program headers and the note segments only.
    public static func read(path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        func bytes(at offset: UInt64, count: Int) -> [UInt8]? {
            guard count >= 0, count < 1 << 20 else { return nil }
            do {
                try handle.seek(toOffset: offset)
                guard let data = try handle.read(upToCount: count), data.count == count else { return nil }
                return [UInt8](data)
            } catch {
                return nil
            }
        }
        guard let header = bytes(at: 0, count: 64), header[0] == 0x7f, header[1] == 0x45, header[2] == 0x4c,
              header[3] == 0x46, header[4] == 2 /* 64-bit */, header[5] == 1 /* little-endian */ else { return nil }
        let phoff = header.le64(32)
        let phentsize = Int(header.le16(54)), phnum = Int(header.le16(56))
        guard phentsize >= 56, phnum > 0, phnum < 4096,
              let table = bytes(at: phoff, count: phentsize * phnum) else { return nil }
        for i in 0..<phnum {
            let base = i * phentsize
            guard table.le32(base) == 4 /* PT_NOTE */ else { continue }
            let offset = table.le64(base + 8), size = Int(table.le64(base + 32))
            guard let notes = bytes(at: offset, count: size) else { continue }
            if let id = buildID(inNotes: notes) { return id }
        }
        return nil
    }

    static func buildID(inNotes notes: [UInt8]) -> String? {
        var at = 0
        while at + 12 <= notes.count {
            let nameSize = Int(notes.le32(at)), descSize = Int(notes.le32(at + 4)), type = notes.le32(at + 8)
            let name = at + 12, desc = name + ((nameSize + 3) & ~3)
            let next = desc + ((descSize + 3) & ~3)
            guard next <= notes.count, desc + descSize <= notes.count else { return nil }
            if type == 3 /* NT_GNU_BUILD_ID */, nameSize == 4, Array(notes[name..<name + 4]) == [0x47, 0x4e, 0x55, 0] {
                return notes[desc..<desc + descSize].map { String(format: "%02x", $0) }.joined()
            }
            at = next
        }
        return nil
    }
}
