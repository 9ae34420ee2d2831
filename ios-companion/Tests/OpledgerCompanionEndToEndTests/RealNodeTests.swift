import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest
@testable import OpledgerCompanion

/// The package's client against a real node (ios-companion/e2e-linux.sh starts one in the local
/// profile, App Attest required, and says where it is): its portable core (the pure-Swift SHA-256,
/// the file-backed store, URLSession), a software P-256 key attested by the CLI's development
/// authority. The first claim's answer is lost after the node received it; the retry reuses the
/// operationId and the body with a fresh challenge and assertion, and the node answers 200
/// `Idempotent-Replayed`. Skipped unless OPLEDGER_E2E_NODE is set (the package's own tests run
/// without a node).
final class RealNodeTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("opledger-e2e-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func testALostAnswerIsRetriedWithTheSameOperationIDAndTheRealNodeAnswersReplayed() async throws {
        #if os(Linux)
        let environment = ProcessInfo.processInfo.environment
        guard let node = environment["OPLEDGER_E2E_NODE"].flatMap(URL.init(string:)) else {
            throw XCTSkip("OPLEDGER_E2E_NODE is not set: run ios-companion/e2e-linux.sh")
        }
        let token = try XCTUnwrap(environment["OPLEDGER_E2E_TOKEN"], "OPLEDGER_E2E_TOKEN")
        let attestor = DevAuthorityAttestor(java: try XCTUnwrap(environment["OPLEDGER_E2E_JAVA"]),
                                            cliJar: try XCTUnwrap(environment["OPLEDGER_E2E_CLI_JAR"]),
                                            app: environment["OPLEDGER_E2E_APP"] ?? "OPLEDGERDV.dev.opledger.simulator")
        let transport = LosingTheFirstClaim(URLSessionTransport(baseURL: node, timeout: 30))
        let client = OpledgerClient(
            transport: transport, attestor: attestor,
            keys: try DeviceKeyStore(directory: directory.appendingPathComponent("key")),
            store: try FileOperationStore(directory: directory.appendingPathComponent("operations")),
            tokens: { token }, sha256: PortableSHA256(),
            retry: RetryPolicy(maxAttempts: 3, baseDelay: 0.2, maxDelay: 1, random: { 0.5 }))
        let command = try Command(type: "checkout", arguments: [
            "sku": "SKU-ESPRESSO", "quantity": 1, "amount": 49.90, "currency": "EUR", "recipient": "ann@example.com",
        ])

        let result = try await client.submit(command)

        guard case .finished(let id, .replayed(let view)) = result else { return XCTFail("\(result)") }
        let claims = await transport.claims
        XCTAssertEqual(claims.count, 2, "the lost attempt and its retry")
        XCTAssertEqual(claims.map { $0.request.headers["Idempotency-Key"] }, [id.description, id.description])
        XCTAssertEqual(claims[0].request.body, claims[1].request.body, "the stored body, byte for byte")
        XCTAssertNotEqual(claims[0].request.headers["App-Attest-Challenge"],
                          claims[1].request.headers["App-Attest-Challenge"], "a fresh challenge per attempt")
        XCTAssertNotEqual(claims[0].request.headers["App-Attest-Assertion"],
                          claims[1].request.headers["App-Attest-Assertion"])
        XCTAssertEqual(claims[0].response.status, 202, "the node claimed it; the answer was what got lost")
        XCTAssertEqual(claims[1].response.status, 200)
        XCTAssertEqual(claims[1].response.header("Idempotent-Replayed"), "true")
        XCTAssertEqual(view.operationId, id.description)
        XCTAssertEqual(view.payloadHash, Encodings.hex(PortableSHA256().hash(command.canonicalBody)),
                       "the node's payload hash is the one the package computes")
        let attestations = await attestor.attestations
        XCTAssertEqual(attestations, 1, "one key, attested once")
        let registrations = await transport.registrations
        XCTAssertEqual(registrations, [201], "the node accepted the development authority's attestation")
        #else
        throw XCTSkip("the end-to-end test runs on Linux (ios-companion/e2e-linux.sh)")
        #endif
    }
}

/// URLSession to the node, except that the answer to the first `POST /v1/operations` is lost
/// after the node has answered it: the request reached the node, the app saw an error.
actor LosingTheFirstClaim: HTTPTransport {
    struct Lost: Error {}

    private let inner: URLSessionTransport
    private(set) var claims: [(request: HTTPRequest, response: HTTPResponse)] = []
    private(set) var registrations: [Int] = []

    init(_ inner: URLSessionTransport) {
        self.inner = inner
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let response = try await inner.send(request)
        if request.method == "POST" && request.path == AttestedRequestBuilder.keysPath {
            registrations.append(response.status)
        }
        if request.method == "POST" && request.path == AttestedRequestBuilder.operationsPath {
            claims.append((request, response))
            if claims.count == 1 {
                throw Lost()
            }
        }
        return response
    }
}
