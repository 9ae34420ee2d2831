import Foundation
#if canImport(DeviceCheck)
import DeviceCheck
#endif

/// App Attest's three calls, injectable: on a device ``AppAttestService`` (DeviceCheck); in tests
/// and on Linux a software key. Key ids are base64, as DeviceCheck returns them. An error thrown
/// here ends `OpledgerClient.send` with that error; the operation stays stored, unchanged.
public protocol DeviceAttestor: Sendable {
    func generateKey() async throws -> String
    func attestKey(_ keyID: String, clientDataHash: [UInt8]) async throws -> [UInt8]
    func generateAssertion(_ keyID: String, clientDataHash: [UInt8]) async throws -> [UInt8]
}

#if canImport(DeviceCheck)
/// DeviceCheck's `DCAppAttestService`; App Attest only works on a real device.
@available(iOS 14.0, macOS 11.0, tvOS 15.0, *)
public struct AppAttestService: DeviceAttestor {
    public enum Failure: Error {
        case unsupported
    }

    public init() {}

    public func generateKey() async throws -> String {
        guard DCAppAttestService.shared.isSupported else { throw Failure.unsupported }
        return try await DCAppAttestService.shared.generateKey()
    }

    public func attestKey(_ keyID: String, clientDataHash: [UInt8]) async throws -> [UInt8] {
        Array(try await DCAppAttestService.shared.attestKey(keyID, clientDataHash: Data(clientDataHash)))
    }

    public func generateAssertion(_ keyID: String, clientDataHash: [UInt8]) async throws -> [UInt8] {
        Array(try await DCAppAttestService.shared.generateAssertion(keyID, clientDataHash: Data(clientDataHash)))
    }
}
#endif

/// The install's App Attest key: generated and attested on first use, kept across launches.
public struct DeviceKey: Codable, Sendable, Equatable {
    public var keyID: String
    /// The node accepted its attestation (`POST /v1/attest/keys` answered 201 or 200).
    public var registered: Bool
}

/// The device key in one file, written atomically.
public actor DeviceKeyStore {
    private let file: URL

    public init(directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.file = directory.appendingPathComponent("device-key.json")
    }

    public func load() throws -> DeviceKey? {
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        return try JSONDecoder().decode(DeviceKey.self, from: Data(contentsOf: file))
    }

    public func save(_ key: DeviceKey) throws {
        try DurableFile.write(JSONEncoder().encode(key), to: file)
    }

    public func forget() throws {
        if FileManager.default.fileExists(atPath: file.path) {
            try FileManager.default.removeItem(at: file)
        }
    }
}
