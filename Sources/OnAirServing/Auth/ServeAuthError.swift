#if os(Linux)
/// A user, range or password hash that cannot be taken.
package struct ServeAuthError: Error, CustomStringConvertible, Equatable {
    /// What is wrong.
    public var description: String
    /// Creates an error saying `description`.
    public init(_ description: String) { self.description = description }
}
#endif
