import Foundation
import XCTest
@testable import OpledgerCompanion

final class OpledgerClientTests: XCTestCase {
    private var directory: URL!
    private let checkout: [String: JSONValue] = [
        "sku": "SKU-ESPRESSO", "quantity": 2, "amount": 99.80, "currency": "EUR", "recipient": "ann@example.com",
    ]

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("opledger-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A client as an app makes one at launch: its store and key files in `directory`.
    private func client(_ node: FakeNode, attestor: SoftwareAttestor = SoftwareAttestor(),
                        sleeper: RecordingSleeper = RecordingSleeper(), maxAttempts: Int = 4) throws -> OpledgerClient {
        OpledgerClient(transport: node, attestor: attestor,
                       keys: try DeviceKeyStore(directory: directory.appendingPathComponent("key")),
                       store: try FileOperationStore(directory: directory.appendingPathComponent("operations")),
                       tokens: { "token-of-ann" }, sha256: PortableSHA256(),
                       retry: RetryPolicy(maxAttempts: maxAttempts, baseDelay: 1, maxDelay: 30, random: { 0.5 }),
                       sleeper: sleeper)
    }

    private func storedOutcome(_ id: OperationID) async throws -> Outcome? {
        try await FileOperationStore(directory: directory.appendingPathComponent("operations")).load(id)?.outcome
    }

    func testALostResponseIsRetriedWithTheSameOperationIDAndAnsweredAsReplayed() async throws {
        let node = FakeNode()
        await node.inject(.loseResponse, on: AttestedRequestBuilder.operationsPath)
        let sleeper = RecordingSleeper()

        let result = try await client(node, sleeper: sleeper).submit(Command(type: "checkout", arguments: checkout))

        guard case .finished(let id, .replayed(let view)) = result else { return XCTFail("\(result)") }
        let attempts = await node.operationRequests
        XCTAssertEqual(attempts.count, 2)
        XCTAssertEqual(attempts.map { $0.headers["Idempotency-Key"] }, [id.description, id.description])
        XCTAssertEqual(attempts[0].body, attempts[1].body)
        XCTAssertNotEqual(attempts[0].headers["App-Attest-Challenge"], attempts[1].headers["App-Attest-Challenge"])
        let claims = await node.claims
        XCTAssertEqual(Array(claims.keys), [id.description], "one operation on the node, not two")
        XCTAssertEqual(view.operationId, id.description)
        XCTAssertEqual(view.payloadHash, claims[id.description])
        let delays = await sleeper.delays
        XCTAssertEqual(delays, [0.5], "one backoff between the lost attempt and the retry")
        let stored = try await storedOutcome(id)
        XCTAssertEqual(stored, .replayed(view))
    }

    func testTheRequestCarriesExactlyTheProtocolsHeadersAndTheCanonicalBody() async throws {
        let node = FakeNode()

        let result = try await client(node).submit(Command(type: "checkout", arguments: checkout))

        guard case .finished(let id, .accepted(_, let location)) = result else { return XCTFail("\(result)") }
        XCTAssertEqual(location, "/v1/operations/\(id)")
        let requests = await node.operationRequests
        let request = try XCTUnwrap(requests.first)
        XCTAssertEqual(Set(request.headers.keys), ["Authorization", "Accept", "Idempotency-Key", "App-Attest-Key-Id",
                                                   "App-Attest-Challenge", "App-Attest-Assertion", "Content-Type"])
        XCTAssertEqual(String(decoding: request.body, as: UTF8.self),
                       "{\"arguments\":{\"amount\":99.8,\"currency\":\"EUR\",\"quantity\":2,\"recipient\":\"ann@example.com\",\"sku\":\"SKU-ESPRESSO\"},\"type\":\"checkout\"}")
        XCTAssertEqual(Encodings.hex(PortableSHA256().hash(request.body)),
                       "9ba67c56b5c402b2d0a99054723ff173fb858ec019a576dfe7458e3b1148e42f", "docs/protocol.md's checkout")
    }

    func testTheKeyIsGeneratedAndAttestedOnceOnFirstUse() async throws {
        let node = FakeNode()
        let attestor = SoftwareAttestor()
        let client = try client(node, attestor: attestor)

        _ = try await client.submit(Command(type: "checkout", arguments: checkout))
        _ = try await client.submit(Command(type: "checkout", arguments: checkout))

        let registrations = await node.registrations
        XCTAssertEqual(registrations, 1)
        XCTAssertEqual(attestor.generatedKeys.count, 1)
        let claims = await node.claims
        XCTAssertEqual(claims.count, 2)
    }

    func testAnOperationSurvivesAnAppKillAndIsResumedWithItsOperationIDAndBody() async throws {
        let offline = FakeNode()
        for _ in 0..<20 {
            await offline.inject(.dropRequest, on: AttestedRequestBuilder.challengesPath)
        }
        let first = try client(offline, maxAttempts: 2)
        let enqueued = try await first.enqueue(Command(type: "checkout", arguments: checkout))
        let pending = try await first.send(enqueued.operationID)
        guard case .pending(let id, let attempts, _) = pending else { return XCTFail("\(pending)") }
        XCTAssertEqual(id, enqueued.operationID)
        XCTAssertEqual(attempts, 2)

        // the app is killed; at the next launch a new client reads the same files
        let node = FakeNode()
        let results = try await client(node).resumePending()

        guard case .finished(let resumed, .accepted)? = results.first else { return XCTFail("\(results)") }
        XCTAssertEqual(resumed, enqueued.operationID)
        let requests = await node.operationRequests
        let request = try XCTUnwrap(requests.first)
        XCTAssertEqual(request.headers["Idempotency-Key"], enqueued.operationID.description)
        XCTAssertEqual(request.body, enqueued.body)
        let again = try await client(node).resumePending()
        XCTAssertEqual(again, [], "a finished operation is not sent again")
    }

    func testFinalProblemsAreNotRetried() async throws {
        for name in ["key-reuse", "invalid-arguments", "assertion-invalid"] {
            let node = FakeNode()
            await node.inject(.respond(FakeNode.problem(name, name == "assertion-invalid" ? 401 : 422)),
                              on: AttestedRequestBuilder.operationsPath)
            let sleeper = RecordingSleeper()

            let result = try await client(node, sleeper: sleeper).submit(Command(type: "checkout", arguments: checkout))

            guard case .finished(let id, .refused(let problem)) = result else { return XCTFail("\(name): \(result)") }
            XCTAssertEqual(problem.name, name)
            let attempts = await node.operationRequests.count
            XCTAssertEqual(attempts, 1, name)
            let delays = await sleeper.delays
            XCTAssertEqual(delays, [], name)
            let stored = try await storedOutcome(id)
            XCTAssertEqual(stored, .refused(problem))
        }
    }

    func testAnExpiredChallengeIsRetriedAtOnceWithANewOne() async throws {
        let node = FakeNode()
        await node.inject(.respond(FakeNode.problem("challenge-invalid", 401)), on: AttestedRequestBuilder.operationsPath)
        let sleeper = RecordingSleeper()

        let result = try await client(node, sleeper: sleeper).submit(Command(type: "checkout", arguments: checkout))

        guard case .finished(_, .accepted) = result else { return XCTFail("\(result)") }
        let challenges = await node.operationRequests.map { $0.headers["App-Attest-Challenge"] }
        XCTAssertEqual(challenges.count, 2)
        XCTAssertNotEqual(challenges[0], challenges[1])
        let delays = await sleeper.delays
        XCTAssertEqual(delays, [])
    }

    func testRetryAfterIsHonoured() async throws {
        let node = FakeNode()
        await node.inject(.respond(FakeNode.problem("internal-error", 503, headers: ["Retry-After": "7"])),
                          on: AttestedRequestBuilder.operationsPath)
        let sleeper = RecordingSleeper()

        let result = try await client(node, sleeper: sleeper).submit(Command(type: "checkout", arguments: checkout))

        guard case .finished(_, .accepted) = result else { return XCTFail("\(result)") }
        let delays = await sleeper.delays
        XCTAssertEqual(delays, [7])
    }

    func testARevokedKeyIsReplacedByANewlyAttestedOne() async throws {
        let node = FakeNode()
        let attestor = SoftwareAttestor()
        let client = try client(node, attestor: attestor)
        _ = try await client.submit(Command(type: "checkout", arguments: checkout))
        await node.revokeKeys()

        let result = try await client.submit(Command(type: "checkout", arguments: checkout))

        guard case .finished(_, .accepted) = result else { return XCTFail("\(result)") }
        let registrations = await node.registrations
        XCTAssertEqual(registrations, 2)
        XCTAssertEqual(attestor.generatedKeys.count, 2)
    }

    func testStatusPollsUsePreferWaitAndSleepOnlyWhenTheNodeDidNotWait() async throws {
        for applied in [true, false] {
            let node = FakeNode()
            let sleeper = RecordingSleeper()
            let client = try client(node, sleeper: sleeper)
            guard case .finished(let id, _) = try await client.submit(Command(type: "checkout", arguments: checkout))
            else { return XCTFail() }
            await node.script(statuses: ["RUNNING", "RUNNING", "SUCCEEDED"], appliesPreferWait: applied)

            let view = try await client.awaitStatus(id, timeout: 3600)

            XCTAssertEqual(view?.status, "SUCCEEDED")
            let polls = await node.statusRequests
            XCTAssertEqual(polls.map { $0.headers["Prefer"] }, ["wait=20", "wait=20", "wait=20"])
            let delays = await sleeper.delays
            XCTAssertEqual(delays, applied ? [] : [2, 2], "applied: \(applied)")
        }
    }
}

final class FileOperationStoreTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("opledger-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func testEntriesExpireByPolicy() async throws {
        let store = try FileOperationStore(directory: directory,
                                           policy: ExpiryPolicy(pendingLifetime: 100, finishedLifetime: 10))
        let start = Date(timeIntervalSince1970: 1_000_000)
        let command = try Command(type: "checkout", arguments: ["sku": "A"])
        let pending = StoredOperation(operationID: OperationID(), command: command, createdAt: start)
        var finished = StoredOperation(operationID: OperationID(), command: command, createdAt: start)
        finished.lastAttemptAt = start.addingTimeInterval(5)
        finished.outcome = .refused(Problem(type: Problem.prefix + "key-reuse", status: 422))
        try await store.save(pending)
        try await store.save(finished)

        let early = try await store.removeExpired(now: start.addingTimeInterval(15))
        XCTAssertEqual(early, [])
        let late = try await store.removeExpired(now: start.addingTimeInterval(16))
        XCTAssertEqual(late.map(\.operationID), [finished.operationID])
        let last = try await store.removeExpired(now: start.addingTimeInterval(101))
        XCTAssertEqual(last.map(\.operationID), [pending.operationID])
        let left = try await store.all()
        XCTAssertEqual(left, [])
    }

    func testASaveReplacesTheFileWholeAndLeavesNoTemporaryFile() async throws {
        let store = try FileOperationStore(directory: directory)
        var operation = StoredOperation(operationID: OperationID(), command: try Command(type: "t", arguments: [:]),
                                        createdAt: Date())
        try await store.save(operation)
        operation.attempts = 3
        try await store.save(operation)

        let reopened = try await FileOperationStore(directory: directory).load(operation.operationID)
        XCTAssertEqual(reopened?.attempts, 3)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["\(operation.operationID).json"])
    }
}
