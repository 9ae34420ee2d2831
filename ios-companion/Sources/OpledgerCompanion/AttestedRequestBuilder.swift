import Foundation

/// A challenge as `POST /v1/attest/challenges` answers it: the base64url text and its 32 bytes.
public struct Challenge: Sendable, Equatable {
    public let text: String
    public let bytes: [UInt8]

    public init?(text: String) {
        guard let bytes = Encodings.fromBase64URL(text), bytes.count == ClientData.challengeBytes else { return nil }
        self.text = text
        self.bytes = bytes
    }
}

/// The requests of PROTOCOL.md, byte for byte: a challenge, a key registration, and an attempt of
/// an operation with its App Attest headers.
public struct AttestedRequestBuilder: Sendable {
    public static let challengesPath = "/v1/attest/challenges"
    public static let keysPath = "/v1/attest/keys"
    public static let operationsPath = "/v1/operations"

    private let sha256: any SHA256Hashing

    public init(sha256: any SHA256Hashing) {
        self.sha256 = sha256
    }

    public func challengeRequest(token: String) -> HTTPRequest {
        HTTPRequest(method: "POST", path: Self.challengesPath, headers: authorization(token))
    }

    /// `clientDataHash` for `attestKey`: SHA-256 of the challenge's bytes.
    public func registrationClientDataHash(challenge: Challenge) -> [UInt8] {
        ClientData.registrationHash(challenge: challenge.bytes, using: sha256)
    }

    public func keyRegistration(token: String, keyID: String, attestationObject: [UInt8], challenge: Challenge)
        throws -> HTTPRequest
    {
        let body = try CanonicalJSON.bytes([
            "keyId": .string(keyID),
            "attestationObject": .string(Encodings.base64(attestationObject)),
            "challenge": .string(challenge.text),
        ])
        var headers = authorization(token)
        headers["Content-Type"] = "application/json"
        return HTTPRequest(method: "POST", path: Self.keysPath, headers: headers, body: body)
    }

    /// `clientDataHash` for `generateAssertion`: SHA-256(challenge ‖ operationId ‖ SHA-256(JCS(body))).
    public func attemptClientDataHash(operation: StoredOperation, challenge: Challenge) throws -> [UInt8] {
        try ClientData.attemptHash(challenge: challenge.bytes, operationID: operation.operationID,
                                   payloadHash: sha256.hash(operation.body), using: sha256)
    }

    /// `POST /v1/operations` with the stored body, the operationId as `Idempotency-Key`, and the
    /// assertion over this attempt's challenge.
    public func operationRequest(token: String, operation: StoredOperation, keyID: String, challenge: Challenge,
                                 assertion: [UInt8]) -> HTTPRequest
    {
        var headers = authorization(token)
        headers["Idempotency-Key"] = operation.operationID.description
        headers["App-Attest-Key-Id"] = keyID
        headers["App-Attest-Challenge"] = challenge.text
        headers["App-Attest-Assertion"] = Encodings.base64(assertion)
        headers["Content-Type"] = "application/json"
        return HTTPRequest(method: "POST", path: Self.operationsPath, headers: headers, body: operation.body)
    }

    /// `GET /v1/operations/{id}`, asking the node to hold the answer up to `wait` seconds while
    /// the operation has not moved on (RFC 7240 `Prefer: wait`).
    public func statusRequest(token: String, operationID: OperationID, wait: Int?) -> HTTPRequest {
        var headers = authorization(token)
        if let wait {
            headers["Prefer"] = "wait=\(wait)"
        }
        return HTTPRequest(method: "GET", path: "\(Self.operationsPath)/\(operationID)", headers: headers)
    }

    private func authorization(_ token: String) -> [String: String] {
        ["Authorization": "Bearer \(token)", "Accept": "application/json, application/problem+json"]
    }
}
