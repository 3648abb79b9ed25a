#if os(Linux)
/// The WHEP sessions a reload cut (their token or user withdrawn), remembered so the client's own
/// `DELETE /whep/ID` that follows is answered as an ended session instead of being judged by
/// credentials that no longer hold, which would count it as a failed login against its address.
/// The IDs are 128 random bits only that client knew. Bounded: the oldest is forgotten first.
struct WHEPCutSessions: Sendable {
    /// The most sessions remembered.
    static let capacity = 256
    private var order: [String] = []
    private var members: Set<String> = []

    /// Remembers `id` as cut.
    mutating func insert(_ id: String) {
        guard members.insert(id).inserted else { return }
        order.append(id)
        if order.count > Self.capacity { members.remove(order.removeFirst()) }
    }

    /// Whether `id` was cut (and not asked about since); forgets it.
    mutating func take(_ id: String) -> Bool {
        guard members.remove(id) != nil else { return false }
        order.removeAll { $0 == id }
        return true
    }
}
#endif
