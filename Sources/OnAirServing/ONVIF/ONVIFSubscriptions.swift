#if os(Linux)
import Foundation
import OnAirCore

/// The ONVIF events service's PullPoint subscriptions, as pure state: each subscription a
/// bounded queue of motion changes and an expiry on the monotonic clock, the current state
/// for new subscriptions and `SetSynchronizationPoint`, and a ticket per PullMessages so a
/// newer pull on the same subscription ends the older one's wait. Times are passed in
/// (`now`, monotonic seconds; `at`, the wall clock a change is stamped with).
package struct ONVIFSubscriptions: Sendable {
    /// One change of the motion state (or the state as it is, `initialized`).
    package struct Message: Sendable, Equatable {
        /// Whether there is motion.
        package var isMotion: Bool
        /// When, on the wall clock.
        package var at: Date
        /// The state as it is (a new subscription, a synchronization point), not a change.
        package var initialized: Bool

        /// A message.
        package init(isMotion: Bool, at: Date, initialized: Bool) {
            self.isMotion = isMotion
            self.at = at
            self.initialized = initialized
        }
    }

    /// Why an operation on a subscription is refused.
    package enum Refusal: Error, Sendable, Equatable {
        /// `maximumSubscriptions` are open.
        case full
        /// No such subscription (never made, unsubscribed or expired).
        case unknown
    }

    /// Subscriptions open at once at most (each holds at most one PullMessages waiting, so this
    /// also bounds the long polls).
    package var maximumSubscriptions = 16
    /// Messages kept per subscription; beyond, the oldest goes (counted in `dropped`).
    package var maximumQueued = 64
    /// The shortest and longest subscription granted, in seconds.
    package var terminationRange = 10.0...3600.0

    private struct Subscription {
        var expiry: Double
        var queue: [Message]
        var ticket = 0
    }

    private var subscriptions: [String: Subscription] = [:]
    private var nextTicket = 0
    /// The motion state now and since when.
    package private(set) var current: Message
    /// Messages dropped from full queues.
    package private(set) var dropped = 0

    /// No subscriptions; no motion since `start`.
    package init(start: Date) {
        current = Message(isMotion: false, at: start, initialized: true)
    }

    /// The subscriptions open at `now` (expired ones are dropped first).
    package mutating func count(now: Double) -> Int {
        sweep(now: now)
        return subscriptions.count
    }

    /// Opens subscription `id` lasting `seconds` (clamped to `terminationRange`) from `now`, its
    /// queue holding the current state; returns its expiry.
    package mutating func create(id: String, seconds: Double, now: Double) throws(Refusal) -> Double {
        sweep(now: now)
        guard subscriptions.count < maximumSubscriptions else { throw .full }
        let expiry = now + clamped(seconds)
        subscriptions[id] = Subscription(expiry: expiry, queue: [current])
        return expiry
    }

    /// Motion started (`isMotion`) or ended at `at`: queued for every subscription.
    package mutating func publish(isMotion: Bool, at: Date) {
        current = Message(isMotion: isMotion, at: at, initialized: true)
        let message = Message(isMotion: isMotion, at: at, initialized: false)
        for id in subscriptions.keys { enqueue(message, for: id) }
    }

    /// Takes up to `limit` messages of `id`, oldest first.
    package mutating func take(_ id: String, limit: Int, now: Double) throws(Refusal) -> [Message] {
        sweep(now: now)
        guard var subscription = subscriptions[id] else { throw .unknown }
        let count = min(max(limit, 1), subscription.queue.count)
        let taken = Array(subscription.queue.prefix(count))
        subscription.queue.removeFirst(count)
        subscriptions[id] = subscription
        return taken
    }

    /// Whether `id` has messages waiting (false when unknown).
    package func hasMessages(_ id: String) -> Bool { !(subscriptions[id]?.queue.isEmpty ?? true) }

    /// Starts a PullMessages on `id`: the ticket it waits with (an older pull's is no longer current).
    package mutating func beginPull(_ id: String, now: Double) throws(Refusal) -> Int {
        sweep(now: now)
        guard subscriptions[id] != nil else { throw .unknown }
        nextTicket += 1
        subscriptions[id]?.ticket = nextTicket
        return nextTicket
    }

    /// Whether `ticket` is still the latest pull of `id`.
    package func isCurrent(_ id: String, ticket: Int) -> Bool { subscriptions[id]?.ticket == ticket }

    /// The expiry of `id`, or nil when unknown.
    package func expiry(of id: String) -> Double? { subscriptions[id]?.expiry }

    /// Extends `id` to `seconds` (clamped) from `now`; returns the new expiry.
    package mutating func renew(_ id: String, seconds: Double, now: Double) throws(Refusal) -> Double {
        sweep(now: now)
        guard subscriptions[id] != nil else { throw .unknown }
        let expiry = now + clamped(seconds)
        subscriptions[id]?.expiry = expiry
        return expiry
    }

    /// Ends `id`.
    package mutating func unsubscribe(_ id: String, now: Double) throws(Refusal) {
        sweep(now: now)
        guard subscriptions.removeValue(forKey: id) != nil else { throw .unknown }
    }

    /// Queues the current state for `id` (SetSynchronizationPoint).
    package mutating func synchronize(_ id: String, now: Double) throws(Refusal) {
        sweep(now: now)
        guard subscriptions[id] != nil else { throw .unknown }
        enqueue(current, for: id)
    }

    /// Drops the subscriptions expired at `now`.
    package mutating func sweep(now: Double) {
        subscriptions = subscriptions.filter { $0.value.expiry > now }
    }

    private mutating func enqueue(_ message: Message, for id: String) {
        guard var subscription = subscriptions[id] else { return }
        subscription.queue.append(message)
        if subscription.queue.count > maximumQueued {
            subscription.queue.removeFirst(subscription.queue.count - maximumQueued)
            dropped += 1
        }
        subscriptions[id] = subscription
    }

    private func clamped(_ seconds: Double) -> Double {
        guard seconds.isFinite else { return terminationRange.upperBound }
        return min(max(seconds, terminationRange.lowerBound), terminationRange.upperBound)
    }
}
#endif
