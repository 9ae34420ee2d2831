#if os(Linux)
import Foundation
@testable import OpledgerCompanion

/// App Attest for the end-to-end test on Linux: the key is a ``SoftwareP256`` of this process;
/// its attestation is made by the development authority the CLI uses (`opledger-cli device
/// attest`, run as a child process: the authority's keys are the CLI's, in Java); the assertions
/// are signed here, exactly as an iPhone makes them: `authenticatorData = rpIdHash ‖ flags 0x40 ‖
/// counter (big-endian, from 1)`, the signature ECDSA P-256 over SHA-256 of
/// `nonce = SHA-256(authenticatorData ‖ clientDataHash)`, both in a CBOR map.
actor DevAuthorityAttestor: DeviceAttestor {
    struct CliFailed: Error, CustomStringConvertible {
        let description: String
    }

    private let java: String
    private let cliJar: String
    private let app: String
    private let sha256 = PortableSHA256()
    private var keys: [String: SoftwareP256] = [:]
    private var counters: [String: UInt32] = [:]
    private(set) var attestations = 0

    init(java: String, cliJar: String, app: String) {
        self.java = java
        self.cliJar = cliJar
        self.app = app
    }

    func generateKey() async throws -> String {
        let key = try SoftwareP256()
        let keyID = Encodings.base64(sha256.hash(key.publicPoint))
        keys[keyID] = key
        counters[keyID] = 0
        return keyID
    }

    func attestKey(_ keyID: String, clientDataHash: [UInt8]) async throws -> [UInt8] {
        let key = try self.key(keyID)
        let output = try run(["device", "attest", "--app", app, "--public-key", Encodings.base64(key.publicPoint),
                              "--client-data-hash", Encodings.base64(clientDataHash)])
        guard let attestation = Encodings.fromBase64(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw CliFailed(description: "device attest printed no base64: \(output)")
        }
        attestations += 1
        return attestation
    }

    func generateAssertion(_ keyID: String, clientDataHash: [UInt8]) async throws -> [UInt8] {
        let key = try self.key(keyID)
        let counter = counters[keyID, default: 0] + 1
        counters[keyID] = counter
        let authenticatorData = sha256.hash(Array(app.utf8)) + [0x40]
            + [UInt8(counter >> 24 & 0xff), UInt8(counter >> 16 & 0xff), UInt8(counter >> 8 & 0xff), UInt8(counter & 0xff)]
        let nonce = sha256.hash(authenticatorData + clientDataHash)
        let signature = try key.signature(ofDigest: sha256.hash(nonce))
        return CBOR.map([("signature", signature), ("authenticatorData", authenticatorData)])
    }

    private func key(_ keyID: String) throws -> SoftwareP256 {
        guard let key = keys[keyID] else { throw CliFailed(description: "no key \(keyID) here") }
        return key
    }

    private func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: java)
        process.arguments = ["-XX:TieredStopAtLevel=1", "-jar", cliJar] + arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let printed = out.fileHandleForReading.readDataToEndOfFile()
        let complaints = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CliFailed(description: "opledger-cli \(arguments.prefix(2).joined(separator: " ")) exited "
                + "\(process.terminationStatus): \(String(decoding: complaints, as: UTF8.self))")
        }
        return String(decoding: printed, as: UTF8.self)
    }
}

/// The little CBOR an assertion needs (RFC 8949): a map of text keys to byte strings.
enum CBOR {
    static func map(_ entries: [(String, [UInt8])]) -> [UInt8] {
        var out = head(major: 5, UInt64(entries.count))
        for (key, value) in entries {
            out += head(major: 3, UInt64(key.utf8.count)) + Array(key.utf8)
            out += head(major: 2, UInt64(value.count)) + value
        }
        return out
    }

    static func head(major: UInt8, _ length: UInt64) -> [UInt8] {
        let type = major << 5
        switch length {
        case 0..<24: return [type | UInt8(length)]
        case 24..<0x100: return [type | 24, UInt8(length)]
        case 0x100..<0x10000: return [type | 25, UInt8(length >> 8), UInt8(length & 0xff)]
        default: return [type | 26, UInt8(length >> 24 & 0xff), UInt8(length >> 16 & 0xff),
                         UInt8(length >> 8 & 0xff), UInt8(length & 0xff)]
        }
    }
}
#endif
