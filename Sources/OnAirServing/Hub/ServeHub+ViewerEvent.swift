extension ServeHub {
    /// A viewer that joined or left, for the session's events.
    public enum ViewerEvent: Sendable, Equatable {
        /// A viewer was admitted (`transport`: "http", "srt", …; `peer`: its address).
        case joined(id: Int, transport: String, peer: String)
        /// A viewer left: closed or gone (`cut` nil), or cut for being too slow (`cut` says how
        /// far behind it was and why).
        case left(id: Int, transport: String, peer: String, cut: String?)
    }
}
