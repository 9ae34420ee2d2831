import Foundation
import XCTest
@testable import OpledgerCompanion

/// README.md's example, with the transport and App Attest injected (DeviceCheck and a real node
/// are not here): it compiles against the public API and does what the README says.
@MainActor
final class ReadmeCheckout {
    private let client: OpledgerClient

    init(transport: any HTTPTransport, attestor: any DeviceAttestor, support: URL,
         signedInUser: @escaping @Sendable () async throws -> String) throws {
        client = OpledgerClient(
            transport: transport,
            attestor: attestor,
            keys: try DeviceKeyStore(directory: support.appendingPathComponent("key")),
            store: try FileOperationStore(directory: support.appendingPathComponent("operations")),
            tokens: signedInUser,
            sleeper: RecordingSleeper())
    }

    func resume() async {
        _ = try? await client.resumePending()
    }

    func buy() async throws -> String {
        let command = try Command(type: "checkout", arguments: [
            "sku": "SKU-ESPRESSO", "quantity": 2, "amount": 99.80, "currency": "EUR",
            "recipient": "ann@example.com",
        ])
        switch try await client.submit(command) {
        case .finished(let id, .accepted(let operation, _)),
             .finished(let id, .replayed(let operation)):
            let final = try await client.awaitStatus(id, timeout: 60)
            return "\(operation.type) \(id): \(final?.status ?? operation.status)"
        case .finished(_, .refused(let problem)):
            return "refused: \(problem.name) — \(problem.detail ?? "")"
        case .pending(let id, let attempts, let lastFailure):
            return "\(id) not answered after \(attempts) attempts (\(lastFailure)); it will be retried"
        }
    }
}

final class ReadmeExampleTests: XCTestCase {
    func testTheReadmesCheckoutEndsSucceeded() async throws {
        let support = FileManager.default.temporaryDirectory.appendingPathComponent("opledger-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: support) }
        let node = FakeNode()
        await node.script(statuses: ["RUNNING", "SUCCEEDED"], appliesPreferWait: true)

        let answer = try await Self.launchAndBuy(node: node, support: support)

        XCTAssertTrue(answer.hasPrefix("checkout "), answer)
        XCTAssertTrue(answer.hasSuffix(": SUCCEEDED"), answer)
    }

    /// What the app does on the main actor: make the client, resume, buy.
    @MainActor
    private static func launchAndBuy(node: FakeNode, support: URL) async throws -> String {
        let checkout = try ReadmeCheckout(transport: node, attestor: SoftwareAttestor(), support: support,
                                          signedInUser: { "token-of-ann" })
        await checkout.resume()
        return try await checkout.buy()
    }
}
