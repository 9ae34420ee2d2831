import Foundation

/// An RFC 9457 problem the node answered with (docs/problems.md).
public struct Problem: Sendable, Equatable, Codable {
    public static let prefix = "https://opledger.dev/problems/"

    public var type: String
    public var title: String?
    public var status: Int
    public var detail: String?
    public var operationId: String?
    public var check: String?

    public init(type: String, title: String? = nil, status: Int, detail: String? = nil, operationId: String? = nil,
                check: String? = nil) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.operationId = operationId
        self.check = check
    }

    /// The type's last path segment, such as `key-reuse`.
    public var name: String {
        type.hasPrefix(Self.prefix) ? String(type.dropFirst(Self.prefix.count)) : type
    }

    static func from(_ response: HTTPResponse) -> Problem {
        if let problem = try? JSONDecoder().decode(Problem.self, from: Data(response.body)) {
            return problem
        }
        // not a problem body (a proxy's error page): only the status is known
        return Problem(type: "about:blank", status: response.status)
    }
}

/// What the client does about an answer (docs/protocol.md, "Outcomes, and what the app should do").
enum Disposition: Equatable {
    /// Terminal and not an error the app caused: the operation exists on the node.
    case done
    /// Terminal: a retry would be refused the same way (a bug in the app or a tampered request).
    case final
    /// Attempt again at once with a new challenge (and a new assertion with a greater counter).
    case retryWithNewChallenge
    /// The key is unknown or revoked, or the node wants an attestation: register a key, then retry.
    case registerKeyAndRetry
    /// A transient failure: retry after a backoff (or the node's `Retry-After`).
    case retryLater

    static func of(_ response: HTTPResponse, problem: Problem?) -> Disposition {
        if response.status == 202 || (response.status == 200 && response.header("Idempotent-Replayed") == "true") {
            return .done
        }
        switch problem?.name {
        case "challenge-invalid", "assertion-replayed": return .retryWithNewChallenge
        case "key-unknown", "attestation-required": return .registerKeyAndRetry
        case "unauthenticated": return .retryLater  // the token provider is asked again for every attempt
        case "key-reuse", "unknown-operation-type", "invalid-arguments", "idempotency-key", "malformed-body",
             "body-too-large", "unsupported-media-type", "assertion-invalid", "forbidden", "not-found",
             "method-not-allowed", "not-acceptable", "request-rejected", "http-version-not-supported":
            return .final
        default:
            switch response.status {
            case 408, 425, 429, 500...599: return .retryLater
            default: return .final
            }
        }
    }
}
