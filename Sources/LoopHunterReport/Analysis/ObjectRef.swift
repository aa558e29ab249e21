/// An object named in a finding (another process or run may show another instance).
public struct ObjectRef: Sendable, Hashable, Codable {
    public let type: String
    public let name: String?
    public let path: String

    public init(type: String, name: String?, path: String) {
        self.type = type
        self.name = name
        self.path = path
    }

    /// `StatusLabel 'status'`
    public var label: String { name.map { "\(type) '\($0)'" } ?? type }
}
