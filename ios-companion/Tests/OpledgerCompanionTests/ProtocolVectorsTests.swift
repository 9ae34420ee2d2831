import Foundation
import XCTest
@testable import OpledgerCompanion

/// The vectors of docs/protocol.md, read from the shared file the Java tests check against the
/// node's code (protocol/src/test/resources/vectors/protocol.json): the Swift side computes the
/// same canonical bodies, payload hashes and clientDataHashes.
final class ProtocolVectorsTests: XCTestCase {
    private let sha256 = PortableSHA256()

    static func vectorsDirectory() -> URL {
        if let directory = ProcessInfo.processInfo.environment["OPLEDGER_VECTORS_DIR"] {
            return URL(fileURLWithPath: directory)
        }
        // Tests/OpledgerCompanionTests/<file> → the repository root
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("protocol/src/test/resources/vectors")
    }

    private func vectors() throws -> JSONValue {
        let file = Self.vectorsDirectory().appendingPathComponent("protocol.json")
        return try JSONValue.parse(Array(Data(contentsOf: file)))
    }

    struct MissingVector: Error {}

    private func text(_ value: JSONValue?) throws -> String {
        guard case .string(let text)? = value else { throw MissingVector() }
        return text
    }

    func testEachBodyCanonicalisesAndHashesAsTheNodeDoes() throws {
        guard case .array(let cases)? = try vectors()["payloadHash"] else { return XCTFail("no payloadHash vectors") }
        XCTAssertEqual(cases.count, 3)
        for vector in cases {
            let body = try text(vector["body"])
            let canonical = try CanonicalJSON.serialize(JSONValue.parse(body))
            XCTAssertEqual(canonical, try text(vector["canonical"]), body)
            XCTAssertEqual(Encodings.hex(sha256.hash(Array(canonical.utf8))), try text(vector["payloadHash"]), body)
            XCTAssertEqual(Encodings.hex(try Command(body: Array(body.utf8)).payloadHash(using: sha256)),
                           try text(vector["payloadHash"]))
        }
    }

    func testTheAttemptsClientDataAndItsHash() throws {
        guard let attempt = try vectors()["attempt"] else { return XCTFail("no attempt vector") }
        let challenge = try XCTUnwrap(Challenge(text: try text(attempt["challenge"])))
        let operationID = try XCTUnwrap(OperationID(try text(attempt["operationId"])))
        let payloadHash = try XCTUnwrap(Encodings.fromHex(try text(attempt["payloadHash"])))

        XCTAssertEqual(operationID.description, try text(attempt["operationId"]))
        XCTAssertEqual(Encodings.hex(operationID.bytes), try text(attempt["operationIdBytes"]))
        XCTAssertEqual(Encodings.hex(try ClientData.attempt(challenge: challenge.bytes, operationID: operationID,
                                                             payloadHash: payloadHash)),
                       try text(attempt["clientData"]))
        XCTAssertEqual(Encodings.hex(try ClientData.attemptHash(challenge: challenge.bytes, operationID: operationID,
                                                                 payloadHash: payloadHash, using: sha256)),
                       try text(attempt["clientDataHash"]))
    }

    /// The builder's hash for a stored operation: from the stored canonical body to the bytes signed.
    func testTheBuilderSignsTheVectorsClientDataHashForTheFirstBody() throws {
        let all = try vectors()
        guard case .array(let cases)? = all["payloadHash"], let attempt = all["attempt"] else { return XCTFail() }
        let command = try Command(body: Array(try text(cases[0]["body"]).utf8))
        let operation = StoredOperation(operationID: try XCTUnwrap(OperationID(try text(attempt["operationId"]))),
                                        command: command, createdAt: Date())
        let challenge = try XCTUnwrap(Challenge(text: try text(attempt["challenge"])))

        let hash = try AttestedRequestBuilder(sha256: sha256).attemptClientDataHash(operation: operation,
                                                                                      challenge: challenge)

        XCTAssertEqual(Encodings.hex(hash), try text(attempt["clientDataHash"]))
    }

    func testTheRegistrationsClientDataHash() throws {
        guard let registration = try vectors()["registration"] else { return XCTFail("no registration vector") }
        let challenge = try XCTUnwrap(Challenge(text: try text(registration["challenge"])))

        XCTAssertEqual(Encodings.hex(AttestedRequestBuilder(sha256: sha256).registrationClientDataHash(challenge: challenge)),
                       try text(registration["clientDataHash"]))
    }

    func testTheAssertionsRpIdHashAndNonce() throws {
        guard let assertion = try vectors()["assertion"] else { return XCTFail("no assertion vector") }
        let authenticatorData = try XCTUnwrap(Encodings.fromHex(try text(assertion["authenticatorData"])))
        let clientDataHash = try XCTUnwrap(Encodings.fromHex(try text(assertion["clientDataHash"])))

        XCTAssertEqual(Encodings.hex(sha256.hash(Array(try text(assertion["appId"]).utf8))),
                       try text(assertion["rpIdHash"]))
        XCTAssertEqual(Encodings.hex(sha256.hash(authenticatorData, clientDataHash)), try text(assertion["nonce"]))
    }
}
