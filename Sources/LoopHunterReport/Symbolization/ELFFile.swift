import Foundation

/// Reads what LoopHunter needs from an ELF file on disk (64-bit little-endian only): its GNU
/// build-id (the `NT_GNU_BUILD_ID` note), to check that a module is the very file that ran before
/// its debug information is trusted; its `DT_NEEDED` entries, for `loophunter doctor`; and whether
/// it has a program interpreter, for `loophunter run`. Only
/// the header, the program headers and the segments asked for are read.
public struct ELFFile {
    /// One program header: type, file offset, virtual address, size in the file.
    struct Segment {
        let type: UInt32
        let offset: UInt64
        let address: UInt64
        let fileSize: UInt64
    }

    private let handle: FileHandle
    let segments: [Segment]

    /// Opens `path`; nil when it cannot be read or is not a 64-bit little-endian ELF file.
    public init?(path: String) {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        self.handle = handle
        guard let header = Self.bytes(handle, at: 0, count: 64), header[0] == 0x7f, header[1] == 0x45,
              header[2] == 0x4c, header[3] == 0x46, header[4] == 2 /* 64-bit */, header[5] == 1 /* LE */ else { return nil }
        let phoff = header.le64(32)
        let phentsize = Int(header.le16(54)), phnum = Int(header.le16(56))
        guard phentsize >= 56, phnum > 0, phnum < 4096,
              let table = Self.bytes(handle, at: phoff, count: phentsize * phnum) else { return nil }
        segments = (0..<phnum).map { i in
            let b = i * phentsize
            return Segment(type: table.le32(b), offset: table.le64(b + 8), address: table.le64(b + 16), fileSize: table.le64(b + 32))
        }
    }

    /// The build-id of the file at `path` as lower-case hex, or nil.
    public static func buildID(path: String) -> String? { ELFFile(path: path)?.buildID }

    /// The build-id as lower-case hex; nil when the file has no build-id note.
    public var buildID: String? {
        for segment in segments where segment.type == 4 /* PT_NOTE */ {
            if let notes = Self.bytes(handle, at: segment.offset, count: Int(segment.fileSize)),
               let id = Self.buildID(inNotes: notes) { return id }
        }
        return nil
    }

    /// Whether the file names a program interpreter (`PT_INTERP`): a dynamically linked executable
    /// does; a statically linked one (static-pie included) does not, and no `LD_PRELOAD` reaches it.
    public var hasInterpreter: Bool { segments.contains { $0.type == 3 /* PT_INTERP */ } }

    /// The `DT_NEEDED` library names, in order; nil when the file has no dynamic section.
    public var neededLibraries: [String]? {
        guard let dynamic = segments.first(where: { $0.type == 2 /* PT_DYNAMIC */ }),
              let entries = Self.bytes(handle, at: dynamic.offset, count: Int(dynamic.fileSize)) else { return nil }
        var needed: [UInt64] = []
        var stringTable: UInt64?, stringSize: UInt64 = 0
        for at in stride(from: 0, to: entries.count - 15, by: 16) {
            let tag = entries.le64(at), value = entries.le64(at + 8)
            switch tag {
            case 0: break                      // DT_NULL
            case 1: needed.append(value)       // DT_NEEDED
            case 5: stringTable = value        // DT_STRTAB (an address)
            case 10: stringSize = value        // DT_STRSZ
            default: continue
            }
            if tag == 0 { break }
        }
        guard let address = stringTable,
              let load = segments.first(where: { $0.type == 1 && address >= $0.address && address < $0.address + $0.fileSize }),
              let strings = Self.bytes(handle, at: load.offset + (address - load.address), count: Int(stringSize)) else { return nil }
        return needed.compactMap { offset in
            guard offset < UInt64(strings.count) else { return nil }
            let tail = strings[Int(offset)...]
            return String(decoding: tail.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    private static func bytes(_ handle: FileHandle, at offset: UInt64, count: Int) -> [UInt8]? {
        guard count >= 0, count < 1 << 24 else { return nil }
        do {
            try handle.seek(toOffset: offset)
            guard let data = try handle.read(upToCount: count), data.count == count else { return nil }
            return [UInt8](data)
        } catch {
            return nil
        }
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
