import Foundation

/// How long to wait before the next attempt: exponential backoff with full jitter, never shorter
/// than the node's `Retry-After`, and a bound on the attempts one `send` makes (the operation
/// stays in the store and is resumed later with the same operationId).
public struct RetryPolicy: Sendable {
    public var maxAttempts: Int
    public var baseDelay: TimeInterval
    public var maxDelay: TimeInterval
    /// A number in `0...1`; injectable so tests are deterministic.
    public var random: @Sendable () -> Double

    public init(maxAttempts: Int = 6, baseDelay: TimeInterval = 0.5, maxDelay: TimeInterval = 60,
                random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }) {
        precondition(maxAttempts >= 1, "at least one attempt")
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.random = random
    }

    /// The delay after the `failedAttempts`-th failed attempt (1 for the first).
    public func delay(afterFailedAttempts failedAttempts: Int, retryAfter: TimeInterval?) -> TimeInterval {
        let exponent = Double(min(max(failedAttempts - 1, 0), 30))
        let ceiling = min(maxDelay, baseDelay * pow(2, exponent))
        let jittered = ceiling * min(max(random(), 0), 1)
        return max(jittered, retryAfter ?? 0)
    }

    /// `Retry-After` as delay-seconds or an HTTP-date (RFC 9110 §10.2.3).
    public static func retryAfter(_ value: String?, now: Date) -> TimeInterval? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value), seconds >= 0 {
            return TimeInterval(seconds)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}

/// Waits; injectable so tests neither sleep nor depend on timing.
public protocol Sleeper: Sendable {
    func sleep(seconds: TimeInterval) async throws
}

public struct TaskSleeper: Sleeper {
    public init() {}

    public func sleep(seconds: TimeInterval) async throws {
        guard seconds > 0 else { return }
        try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
    }
}
