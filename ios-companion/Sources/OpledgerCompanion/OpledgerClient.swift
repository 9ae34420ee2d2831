import Foundation

/// What `send` ended with.
public enum SubmissionResult: Sendable, Equatable {
    /// A terminal answer, stored with the operation.
    case finished(OperationID, Outcome)
    /// No terminal answer within the policy's attempts; the operation stays stored and a later
    /// `send` or `resumePending` retries it with the same operationId and body.
    case pending(OperationID, attempts: Int, lastFailure: String)
}

public enum ClientError: Error, Equatable, Sendable {
    case unknownOperation(OperationID)
    /// The node refused the device key's attestation (`attestation-invalid`: not a genuine app).
    case registrationRefused(Problem)
    case refused(Problem)
    case unexpectedAnswer(status: Int)
}

/// Submits operations from an app: the operation is stored before the first attempt; each attempt
/// fetches a fresh challenge, signs `challenge ‖ operationId ‖ payloadHash`, and sends the stored
/// body under the same `Idempotency-Key`, until the node answers with a terminal outcome.
/// The device key is generated and attested on first use.
public actor OpledgerClient {
    public typealias TokenProvider = @Sendable () async throws -> String

    private let transport: any HTTPTransport
    private let attestor: any DeviceAttestor
    private let keys: DeviceKeyStore
    private let store: FileOperationStore
    private let tokens: TokenProvider
    private let builder: AttestedRequestBuilder
    private let retry: RetryPolicy
    private let sleeper: any Sleeper
    private let now: @Sendable () -> Date
    /// Seconds asked for with `Prefer: wait` when polling an operation's status.
    private let preferWait: Int
    private let pollInterval: TimeInterval

    public init(transport: any HTTPTransport, attestor: any DeviceAttestor, keys: DeviceKeyStore,
                store: FileOperationStore, tokens: @escaping TokenProvider,
                sha256: any SHA256Hashing = platformSHA256(), retry: RetryPolicy = RetryPolicy(),
                sleeper: any Sleeper = TaskSleeper(), now: @escaping @Sendable () -> Date = { Date() },
                preferWait: Int = 20, pollInterval: TimeInterval = 2)
    {
        self.transport = transport
        self.attestor = attestor
        self.keys = keys
        self.store = store
        self.tokens = tokens
        self.builder = AttestedRequestBuilder(sha256: sha256)
        self.retry = retry
        self.sleeper = sleeper
        self.now = now
        self.preferWait = preferWait
        self.pollInterval = pollInterval
    }

    /// Makes the action durable intent: a new operationId and the canonical body, stored before
    /// anything is sent.
    public func enqueue(_ command: Command) async throws -> StoredOperation {
        let operation = StoredOperation(operationID: OperationID(), command: command, createdAt: now())
        try await store.save(operation)
        return operation
    }

    /// `enqueue` then `send`.
    public func submit(_ command: Command) async throws -> SubmissionResult {
        try await send(enqueue(command).operationID)
    }

    /// Retries every stored operation that has no terminal answer yet (call it at launch).
    public func resumePending() async throws -> [SubmissionResult] {
        try await store.removeExpired(now: now())
        var results: [SubmissionResult] = []
        for operation in try await store.pending() {
            results.append(try await send(operation.operationID))
        }
        return results
    }

    /// Attempts a stored operation until a terminal answer or the policy's last attempt.
    public func send(_ operationID: OperationID) async throws -> SubmissionResult {
        guard var operation = try await store.load(operationID) else { throw ClientError.unknownOperation(operationID) }
        if let outcome = operation.outcome {
            return .finished(operationID, outcome)
        }
        var lastFailure = ""
        var failedAttempts = 0
        for attempt in 1...retry.maxAttempts {
            operation.attempts += 1
            operation.lastAttemptAt = now()
            try await store.save(operation)
            var retryAfter: TimeInterval?
            do {
                let response = try await attemptOnce(operation)
                let problem = response.status >= 400 ? Problem.from(response) : nil
                switch Disposition.of(response, problem: problem) {
                case .done:
                    let view = try JSONDecoder().decode(OperationView.self, from: Data(response.body))
                    operation.outcome = response.status == 202
                        ? .accepted(view, location: response.header("Location")) : .replayed(view)
                    try await store.save(operation)
                    return .finished(operationID, operation.outcome!)
                case .final:
                    operation.outcome = .refused(problem ?? Problem(type: "about:blank", status: response.status))
                    try await store.save(operation)
                    return .finished(operationID, operation.outcome!)
                case .retryWithNewChallenge:
                    lastFailure = problem?.name ?? "\(response.status)"
                    continue
                case .registerKeyAndRetry:
                    lastFailure = problem?.name ?? "\(response.status)"
                    try await keys.forget()
                    continue
                case .retryLater:
                    lastFailure = problem.map { "\($0.status) \($0.name)" } ?? "\(response.status)"
                    retryAfter = RetryPolicy.retryAfter(response.header("Retry-After"), now: now())
                }
            } catch let failure as TransientFailure {
                lastFailure = failure.description
            }
            failedAttempts += 1
            if attempt < retry.maxAttempts {
                try await sleeper.sleep(seconds: retry.delay(afterFailedAttempts: failedAttempts, retryAfter: retryAfter))
            }
        }
        return .pending(operationID, attempts: operation.attempts, lastFailure: lastFailure)
    }

    /// Polls `GET /v1/operations/{id}` until the operation has left ACCEPTED and RUNNING or
    /// `timeout` has passed, and returns what the node last showed. Asks for `Prefer: wait`;
    /// when the node applied it (`Preference-Applied`), it polls again at once, else after the
    /// poll interval (or the node's `Retry-After`).
    public func awaitStatus(_ operationID: OperationID, timeout: TimeInterval) async throws -> OperationView? {
        let deadline = now().addingTimeInterval(timeout)
        var last: OperationView?
        while true {
            var serverWaited = false
            var retryAfter: TimeInterval?
            do {
                let response = try await send(builder.statusRequest(token: token(), operationID: operationID,
                                                                    wait: preferWait))
                if response.status == 200 {
                    let view = try JSONDecoder().decode(OperationView.self, from: Data(response.body))
                    last = view
                    if view.status != "ACCEPTED" && view.status != "RUNNING" {
                        return view
                    }
                    serverWaited = response.header("Preference-Applied")?.contains("wait") ?? false
                } else {
                    let problem = Problem.from(response)
                    if Disposition.of(response, problem: problem) == .final {
                        throw ClientError.refused(problem)
                    }
                    retryAfter = RetryPolicy.retryAfter(response.header("Retry-After"), now: now())
                }
            } catch is TransientFailure {
                // no answer: poll again after the interval
            }
            if now() >= deadline {
                return last
            }
            if !serverWaited {
                try await sleeper.sleep(seconds: max(pollInterval, retryAfter ?? 0))
            }
        }
    }

    // MARK: one attempt

    private func attemptOnce(_ operation: StoredOperation) async throws -> HTTPResponse {
        let keyID = try await registeredKey()
        let token = try await token()
        let challenge = try await fetchChallenge(token: token)
        let clientDataHash = try builder.attemptClientDataHash(operation: operation, challenge: challenge)
        let assertion = try await attestor.generateAssertion(keyID, clientDataHash: clientDataHash)
        return try await send(builder.operationRequest(token: token, operation: operation, keyID: keyID,
                                                       challenge: challenge, assertion: assertion))
    }

    /// The install's registered key; generates and attests one on first use. A registration
    /// without a clear success forgets the key, so the next attempt starts with a new one
    /// (App Attest attests a key once).
    private func registeredKey() async throws -> String {
        if let key = try await keys.load(), key.registered {
            return key.keyID
        }
        let keyID = try await attestor.generateKey()
        try await keys.save(DeviceKey(keyID: keyID, registered: false))
        do {
            let token = try await token()
            let challenge = try await fetchChallenge(token: token)
            let attestation = try await attestor.attestKey(
                keyID, clientDataHash: builder.registrationClientDataHash(challenge: challenge))
            let response = try await send(builder.keyRegistration(token: token, keyID: keyID,
                                                                  attestationObject: attestation, challenge: challenge))
            switch response.status {
            case 200, 201:
                try await keys.save(DeviceKey(keyID: keyID, registered: true))
                return keyID
            default:
                let problem = Problem.from(response)
                if problem.name == "attestation-invalid" {
                    throw ClientError.registrationRefused(problem)
                }
                throw TransientFailure(description: "key registration: \(problem.status) \(problem.name)")
            }
        } catch {
            try await keys.forget()
            throw error
        }
    }

    private func fetchChallenge(token: String) async throws -> Challenge {
        let response = try await send(builder.challengeRequest(token: token))
        guard response.status == 201 || response.status == 200 else {
            let problem = Problem.from(response)
            throw TransientFailure(description: "challenge: \(problem.status) \(problem.name)")
        }
        struct Issued: Decodable { let challenge: String }
        guard let issued = try? JSONDecoder().decode(Issued.self, from: Data(response.body)),
              let challenge = Challenge(text: issued.challenge)
        else {
            throw ClientError.unexpectedAnswer(status: response.status)
        }
        return challenge
    }

    private func token() async throws -> String {
        do {
            return try await tokens()
        } catch {
            throw TransientFailure(description: "no token: \(error)")
        }
    }

    private func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        do {
            return try await transport.send(request)
        } catch {
            throw TransientFailure(description: "no answer to \(request.method) \(request.path): \(error)")
        }
    }
}

/// A failure a later attempt may not have: no answer, no token, a node that is not ready.
struct TransientFailure: Error, CustomStringConvertible {
    let description: String
}
