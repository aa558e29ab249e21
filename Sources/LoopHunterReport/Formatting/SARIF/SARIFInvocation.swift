/// How the run went: always successful (files that could not be read are notifications).
struct SARIFInvocation: Codable, Sendable, Equatable {
    let executionSuccessful: Bool
    /// One warning per report file that could not be read; absent when there is none.
    let toolExecutionNotifications: [SARIFNotification]?
}
