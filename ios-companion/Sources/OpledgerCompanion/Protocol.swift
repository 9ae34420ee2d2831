import Foundation

/// The retry identity (PROTOCOL.md): a UUID the app makes when an action becomes durable intent,
/// sent as `Idempotency-Key` in its lowercase text form and hashed as its 16 bytes.
public struct OperationID: Sendable, Hashable, Codable, CustomStringConvertible {
    public let uuid: UUID

    public init(_ uuid: UUID = UUID()) {
        self.uuid = uuid
    }

    public init?(_ text: String) {
        guard text.utf8.count == 36, let uuid = UUID(uuidString: text) else { return nil }
        self.uuid = uuid
    }

    /// The 16 bytes in RFC 9562 network order: the bytes of `uuid.uuid`.
    public var bytes: [UInt8] {
        withUnsafeBytes(of: uuid.uuid) { Array($0) }
    }

    /// The canonical 36-character lowercase text.
    public var description: String {
        uuid.uuidString.lowercased()
    }
}

/// A command as the node receives it, `{"type": …, "arguments": {…}}`, in its canonical
/// (RFC 8785) bytes, which are what the app stores and sends on every attempt.
public struct Command: Sendable, Equatable {
    public let type: String
    public let canonicalBody: [UInt8]

    public init(type: String, arguments: [String: JSONValue]) throws {
        self.type = type
        self.canonicalBody = try CanonicalJSON.bytes(.object(["type": .string(type), "arguments": .object(arguments)]))
    }

    /// A body the app already has as JSON (for example from `JSONEncoder`).
    public init(body: [UInt8]) throws {
        let value = try JSONValue.parse(body)
        guard case .string(let type)? = value["type"], case .object? = value["arguments"] else {
            throw JSONError.malformed("a command is {\"type\": \"<name>\", \"arguments\": {…}}", at: 0)
        }
        self.type = type
        self.canonicalBody = try CanonicalJSON.bytes(value)
    }

    /// `payloadHash = SHA-256(JCS(body))`.
    public func payloadHash(using sha256: any SHA256Hashing) -> [UInt8] {
        sha256.hash(canonicalBody)
    }
}

/// What the device signs (PROTOCOL.md): for an attempt `challenge (32) ‖ operationId (16) ‖
/// payloadHash (32)`, 80 bytes, whose SHA-256 is the clientDataHash of `generateAssertion`; for a
/// key registration SHA-256 of the challenge alone, the clientDataHash of `attestKey`.
public enum ClientData {
    public static let challengeBytes = 32

    public enum Failure: Error, Equatable, Sendable {
        case challengeLength(Int)
        case payloadHashLength(Int)
    }

    public static func attempt(challenge: [UInt8], operationID: OperationID, payloadHash: [UInt8]) throws -> [UInt8] {
        guard challenge.count == challengeBytes else { throw Failure.challengeLength(challenge.count) }
        guard payloadHash.count == 32 else { throw Failure.payloadHashLength(payloadHash.count) }
        return challenge + operationID.bytes + payloadHash
    }

    public static func attemptHash(challenge: [UInt8], operationID: OperationID, payloadHash: [UInt8],
                                   using sha256: any SHA256Hashing) throws -> [UInt8] {
        sha256.hash(try attempt(challenge: challenge, operationID: operationID, payloadHash: payloadHash))
    }

    public static func registrationHash(challenge: [UInt8], using sha256: any SHA256Hashing) -> [UInt8] {
        sha256.hash(challenge)
    }
}
