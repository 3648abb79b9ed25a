extension ServeHub {
    /// A viewer that joined or left, for the session's events.
    public enum ViewerEvent: Sendable, Equatable {
        /// A viewer was admitted (`transport`: "http", "srt", …; `peer`: its address).
        case joined(id: Int, transport: String, peer: String)
        /// A viewer left: closed or gone (`cut` nil), or cut by the server (`cut` says why: too
        /// slow, with how far behind it was and what held it back, or its credential withdrawn).
        case left(id: Int, transport: String, peer: String, cut: String?)
    }
}
