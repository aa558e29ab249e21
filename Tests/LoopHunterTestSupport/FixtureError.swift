/// A fixture file that is not what a test expected.
package struct FixtureError: Error, CustomStringConvertible {
    package let description: String

    package init(description: String) { self.description = description }
}
