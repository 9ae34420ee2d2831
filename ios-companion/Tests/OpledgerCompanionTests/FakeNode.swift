import Foundation
@testable import OpledgerCompanion

/// A node as far as the protocol goes, in memory: challenges (single use), key registration,
/// the claim by operationId and payload hash, and status polls. It checks every attempt as
/// PROTOCOL.md says the node does: the payload hash of the received body (its own JCS), the
/// clientData rebuilt from the challenge and Idempotency-Key headers, the key's assertion.
/// Faults are queued per path: a lost response runs the request, then throws.
actor FakeNode: HTTPTransport {
    enum Fault {
        /// The request never reaches the node.
        case dropRequest
        /// The node handles the request, the answer never reaches the app.
        case loseResponse
        /// The node answers this instead of handling the request.
        case respond(HTTPResponse)
    }

    struct Lost: Error {}

    private let sha256 = PortableSHA256()
    private var faults: [String: [Fault]] = [:]
    private var issuedChallenges: Set<String> = []
    private(set) var usedChallenges: [String] = []
    private(set) var registeredKeys: Set<String> = []
    private(set) var registrations = 0
    /// operationId → payloadHash hex: one row per claimed operation.
    private(set) var claims: [String: String] = [:]
    private(set) var operationRequests: [HTTPRequest] = []
    private(set) var statusRequests: [HTTPRequest] = []
    private var statuses: [String] = []
    private var appliesPreferWait = false

    func inject(_ fault: Fault, on path: String) {
        faults[path, default: []].append(fault)
    }

    func revokeKeys() {
        registeredKeys.removeAll()
    }

    /// What `GET /v1/operations/{id}` shows, one status per poll (the last one stays).
    func script(statuses: [String], appliesPreferWait: Bool) {
        self.statuses = statuses
        self.appliesPreferWait = appliesPreferWait
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let route = request.path.hasPrefix(AttestedRequestBuilder.operationsPath + "/")
            ? "GET status" : request.path
        if var queued = faults[route], !queued.isEmpty {
            let fault = queued.removeFirst()
            faults[route] = queued
            switch fault {
            case .dropRequest:
                throw Lost()
            case .respond(let response):
                if request.path == AttestedRequestBuilder.operationsPath { operationRequests.append(request) }
                return response
            case .loseResponse:
                _ = try handle(request)
                throw Lost()
            }
        }
        return try handle(request)
    }

    private func handle(_ request: HTTPRequest) throws -> HTTPResponse {
        guard request.headers["Authorization"] == "Bearer token-of-ann" else {
            return Self.problem("unauthenticated", 401)
        }
        switch (request.method, request.path) {
        case ("POST", AttestedRequestBuilder.challengesPath):
            let challenge = Encodings.base64URL((0..<32).map { _ in UInt8.random(in: 0...255) })
            issuedChallenges.insert(challenge)
            return HTTPResponse(status: 201, headers: ["Content-Type": "application/json"],
                                body: Array("{\"challenge\":\"\(challenge)\",\"expiresAt\":\"2026-12-01T12:05:00Z\"}".utf8))
        case ("POST", AttestedRequestBuilder.keysPath):
            return try register(request)
        case ("POST", AttestedRequestBuilder.operationsPath):
            operationRequests.append(request)
            return try submit(request)
        case ("GET", _):
            statusRequests.append(request)
            let status = statuses.count > 1 ? statuses.removeFirst() : (statuses.first ?? "ACCEPTED")
            let id = String(request.path.dropFirst(AttestedRequestBuilder.operationsPath.count + 1))
            var headers = ["Content-Type": "application/json"]
            if appliesPreferWait, request.headers["Prefer"]?.hasPrefix("wait=") == true {
                headers["Preference-Applied"] = request.headers["Prefer"]
            }
            return HTTPResponse(status: 200, headers: headers, body: Self.view(id, status: status, hash: claims[id] ?? ""))
        default:
            return Self.problem("not-found", 404)
        }
    }

    private func useChallenge(_ text: String?) -> Challenge? {
        guard let text, issuedChallenges.remove(text) != nil else { return nil }
        usedChallenges.append(text)
        return Challenge(text: text)
    }

    private func register(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try JSONValue.parse(request.body)
        guard case .string(let keyID)? = body["keyId"], case .string(let attestation)? = body["attestationObject"],
              case .string(let challengeText)? = body["challenge"]
        else { return Self.problem("malformed-body", 400) }
        guard let challenge = useChallenge(challengeText) else { return Self.problem("challenge-invalid", 401) }
        let expected = SoftwareAttestor.attestation(clientDataHash: sha256.hash(challenge.bytes))
        guard Encodings.fromBase64(attestation) == expected else { return Self.problem("attestation-invalid", 401) }
        registeredKeys.insert(keyID)
        registrations += 1
        return HTTPResponse(status: 201, body: Array("{\"keyId\":\"\(keyID)\"}".utf8))
    }

    private func submit(_ request: HTTPRequest) throws -> HTTPResponse {
        guard request.headers["Content-Type"] == "application/json" else {
            return Self.problem("unsupported-media-type", 415)
        }
        guard let key = request.headers["Idempotency-Key"], let operationID = OperationID(key) else {
            return Self.problem("idempotency-key", 400)
        }
        guard let canonical = try? CanonicalJSON.bytes(JSONValue.parse(request.body)) else {
            return Self.problem("malformed-body", 400)
        }
        let payloadHash = sha256.hash(canonical)
        guard let keyID = request.headers["App-Attest-Key-Id"], let assertion = request.headers["App-Attest-Assertion"]
        else { return Self.problem("attestation-required", 401) }
        guard let challenge = useChallenge(request.headers["App-Attest-Challenge"]) else {
            return Self.problem("challenge-invalid", 401)
        }
        guard registeredKeys.contains(keyID) else { return Self.problem("key-unknown", 401) }
        let clientDataHash = sha256.hash(challenge.bytes + operationID.bytes + payloadHash)
        guard Encodings.fromBase64(assertion) == SoftwareAttestor.assertion(keyID: keyID, clientDataHash: clientDataHash)
        else { return Self.problem("assertion-invalid", 401) }
        let hex = Encodings.hex(payloadHash)
        let type: String
        if case .string(let name)? = try JSONValue.parse(request.body)["type"] { type = name } else { type = "" }
        if let claimed = claims[operationID.description] {
            guard claimed == hex else { return Self.problem("key-reuse", 422) }
            return HTTPResponse(status: 200, headers: ["Idempotent-Replayed": "true"],
                                body: Self.view(operationID.description, status: "RUNNING", hash: hex, type: type))
        }
        claims[operationID.description] = hex
        return HTTPResponse(status: 202, headers: ["Location": "/v1/operations/\(operationID)"],
                            body: Self.view(operationID.description, status: "ACCEPTED", hash: hex, type: type))
    }

    static func view(_ id: String, status: String, hash: String, type: String = "checkout") -> [UInt8] {
        Array("{\"operationId\":\"\(id)\",\"type\":\"\(type)\",\"status\":\"\(status)\",\"payloadHash\":\"\(hash)\"}".utf8)
    }

    static func problem(_ name: String, _ status: Int, headers: [String: String] = [:]) -> HTTPResponse {
        var all = headers
        all["Content-Type"] = "application/problem+json"
        return HTTPResponse(status: status, headers: all, body: Array(
            "{\"type\":\"\(Problem.prefix)\(name)\",\"title\":\"\(name)\",\"status\":\(status)}".utf8))
    }
}

/// App Attest in software for the tests: the "attestation" and "assertion" are the bytes they
/// commit to, so the fake node can check exactly what the client signed.
struct SoftwareAttestor: DeviceAttestor {
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func increment() { lock.lock(); value += 1; lock.unlock() }
        var count: Int { lock.lock(); defer { lock.unlock() }; return value }
    }

    let generatedKeys = Counter()

    static func attestation(clientDataHash: [UInt8]) -> [UInt8] {
        Array("attest:".utf8) + clientDataHash
    }

    static func assertion(keyID: String, clientDataHash: [UInt8]) -> [UInt8] {
        Array("assert:\(keyID):".utf8) + clientDataHash
    }

    func generateKey() async throws -> String {
        generatedKeys.increment()
        return Encodings.base64((0..<32).map { _ in UInt8.random(in: 0...255) })
    }

    func attestKey(_ keyID: String, clientDataHash: [UInt8]) async throws -> [UInt8] {
        Self.attestation(clientDataHash: clientDataHash)
    }

    func generateAssertion(_ keyID: String, clientDataHash: [UInt8]) async throws -> [UInt8] {
        Self.assertion(keyID: keyID, clientDataHash: clientDataHash)
    }
}

/// Records the delays asked for instead of waiting.
actor RecordingSleeper: Sleeper {
    private(set) var delays: [TimeInterval] = []

    func sleep(seconds: TimeInterval) async throws {
        delays.append(seconds)
    }
}
