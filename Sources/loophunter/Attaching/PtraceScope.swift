import Foundation

/// What Yama's ptrace policy (/proc/sys/kernel/yama/ptrace_scope) lets `loophunter attach` do.
enum PtraceScope {
    /// The value, or nil when Yama is not in this kernel (then ordinary permissions apply).
    static func current() -> Int? {
        guard let text = AttachTarget.procText("/proc/sys/kernel/yama/ptrace_scope") else { return nil }
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Whether this process holds CAP_SYS_PTRACE (effective set, /proc/self/status CapEff bit 19).
    static var hasCapability: Bool {
        guard let status = AttachTarget.procText("/proc/self/status"),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }),
              let bits = UInt64(line.dropFirst("CapEff:".count).trimmingCharacters(in: .whitespaces), radix: 16) else { return false }
        return bits & (1 << 19) != 0
    }

    /// Why attaching to a process that is not our descendant is forbidden here, or nil when allowed.
    static func refusal(scope: Int? = current(), capable: Bool = hasCapability) -> String? {
        switch scope {
        case nil, 0?: return nil
        case 1?:
            if capable { return nil }
            return "Yama's ptrace_scope is 1: only a program's parent may attach to it; allow it with "
                + "`sudo sysctl kernel.yama.ptrace_scope=0`, run loophunter attach as root (CAP_SYS_PTRACE), or start the "
                + "program under `loophunter run` instead"
        case 2?:
            if capable { return nil }
            return "Yama's ptrace_scope is 2: only root (CAP_SYS_PTRACE) may attach; run loophunter attach with sudo, or "
                + "start the program under `loophunter run` instead"
        case let value?:
            return "Yama's ptrace_scope is \(value): attaching is switched off on this machine until it reboots; start the "
                + "program under `loophunter run` instead"
        }
    }
}
