/// Real GTK programs under Xvfb.
package enum GTKRun {
    /// Runs a GTK program under `xvfb-run -a`, with or without the preload (`dir` nil: without).
    package static func run(_ arguments: [String], dir: String?, extra: [String: String?] = [:], timeout: Double = 120) -> HostRun {
        var env: [String: String?] = ["GTK_A11Y": "none", "NO_AT_BRIDGE": "1", "GDK_BACKEND": "x11"]
        if let dir {
            env["LH_TARGET_PRELOAD"] = Native.preload // run-for.sh: the program only, not Xvfb
            env["LOOPHUNTER_DIR"] = dir
        }
        for (k, v) in extra { env[k] = v }
        let isRunFor = arguments.first?.hasSuffix("run-for.sh") == true
        var command = ["/usr/bin/xvfb-run", "-a"]
        if !isRunFor, dir != nil { command += ["/usr/bin/env", "LD_PRELOAD=\(Native.preload)"] }
        return HostRun.run(command + arguments, environment: env, timeout: timeout)
    }

    /// stderr without what differs from run to run: pids, times of day, addresses.
    package static func normalized(_ text: String) -> String {
        var s = text
        for (pattern, replacement) in [(#"\(([^:()]+):\d+\)"#, "($1:PID)"), (#"\d\d:\d\d:\d\d\.\d\d\d"#, "TIME"),
                                       (#"0x[0-9a-f]+"#, "0xADDR")] {
            s = s.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        }
        return s
    }
}
