import LoopHunterCLISupport

/// Calls a function of libloophunter.so inside a running process (the C injector, lh_inject.h):
/// the library is loaded on a thread at its event loop's wait, the function is called there with
/// one string, and the thread goes on where it was.
enum Injector {
    /// What a call gave: the function's int result, or why it was not made.
    enum Outcome {
        case returned(Int32, thread: Int32)
        case failed(code: Int32, message: String)
    }

    static func call(pid: Int32, library: String, function: String, argument: String, timeoutMs: Int32) -> Outcome {
        var result = lh_inject_result()
        let code = lh_inject_call(pid, library, function, argument, timeoutMs, &result)
        if code == Int32(LH_INJECT_OK) { return .returned(Int32(truncatingIfNeeded: result.function_result), thread: result.tid) }
        let message = withUnsafeBytes(of: &result.message) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        return .failed(code: code, message: message)
    }
}
