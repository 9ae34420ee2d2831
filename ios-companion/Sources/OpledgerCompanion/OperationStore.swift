import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One operation as the app keeps it: its operationId and canonical body are stored before the
/// first network attempt and sent unchanged on every attempt until a terminal answer.
public struct StoredOperation: Codable, Sendable, Equatable {
    public let operationID: OperationID
    public let type: String
    public let body: [UInt8]
    public let createdAt: Date
    public var attempts: Int
    public var lastAttemptAt: Date?
    /// `nil` while no terminal answer has arrived.
    public var outcome: Outcome?

    public init(operationID: OperationID, command: Command, createdAt: Date) {
        self.operationID = operationID
        self.type = command.type
        self.body = command.canonicalBody
        self.createdAt = createdAt
        self.attempts = 0
        self.lastAttemptAt = nil
        self.outcome = nil
    }

    public var isPending: Bool { outcome == nil }
}

/// The terminal answer to an operation's submission.
public enum Outcome: Codable, Sendable, Equatable {
    /// 202: the node claimed it now; `location` is where to poll it.
    case accepted(OperationView, location: String?)
    /// 200 `Idempotent-Replayed: true`: an earlier attempt (whose answer may have been lost) claimed it.
    case replayed(OperationView)
    /// A problem a retry cannot fix (`key-reuse`, `invalid-arguments`, …).
    case refused(Problem)
}

/// The operation as the node shows it (`GET /v1/operations/{id}`, and the body of 202 and 200).
public struct OperationView: Codable, Sendable, Equatable {
    public var operationId: String
    public var type: String
    public var status: String
    public var payloadHash: String
    public var createdAt: String?
    public var updatedAt: String?

    public init(operationId: String, type: String, status: String, payloadHash: String, createdAt: String? = nil,
                updatedAt: String? = nil) {
        self.operationId = operationId
        self.type = type
        self.status = status
        self.payloadHash = payloadHash
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// When stored operations are dropped: a pending one once the node would no longer recognise
/// its retry as the same operation, a finished one once the app no longer needs its answer.
public struct ExpiryPolicy: Sendable {
    public var pendingLifetime: TimeInterval
    public var finishedLifetime: TimeInterval

    public init(pendingLifetime: TimeInterval = 7 * 24 * 3600, finishedLifetime: TimeInterval = 24 * 3600) {
        self.pendingLifetime = pendingLifetime
        self.finishedLifetime = finishedLifetime
    }

    func isExpired(_ operation: StoredOperation, now: Date) -> Bool {
        if operation.isPending {
            return now.timeIntervalSince(operation.createdAt) > pendingLifetime
        }
        return now.timeIntervalSince(operation.lastAttemptAt ?? operation.createdAt) > finishedLifetime
    }
}

/// Durable operations: one JSON file per operation in a directory, each written atomically
/// (a temporary file, fsync, rename), so an app killed mid-write keeps the previous version.
public actor FileOperationStore {
    private let directory: URL
    private let policy: ExpiryPolicy

    public init(directory: URL, policy: ExpiryPolicy = ExpiryPolicy()) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.directory = directory
        self.policy = policy
    }

    public func save(_ operation: StoredOperation) throws {
        try DurableFile.write(Self.encoder().encode(operation), to: file(operation.operationID))
    }

    public func load(_ operationID: OperationID) throws -> StoredOperation? {
        let url = file(operationID)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try Self.decoder().decode(StoredOperation.self, from: Data(contentsOf: url))
    }

    public func all() throws -> [StoredOperation] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        return try names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.map { name in
            try Self.decoder().decode(StoredOperation.self, from: Data(contentsOf: directory.appendingPathComponent(name)))
        }.sorted { $0.createdAt < $1.createdAt }
    }

    public func pending() throws -> [StoredOperation] {
        try all().filter(\.isPending)
    }

    /// Removes what the policy says has expired; returns it (a pending one the app may tell its user about).
    @discardableResult
    public func removeExpired(now: Date) throws -> [StoredOperation] {
        let expired = try all().filter { policy.isExpired($0, now: now) }
        for operation in expired {
            try FileManager.default.removeItem(at: file(operation.operationID))
        }
        return expired
    }

    private func file(_ operationID: OperationID) -> URL {
        directory.appendingPathComponent("\(operationID).json")
    }

    private static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    private static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

enum DurableFile {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Writes `data` to a temporary file beside `url`, flushes it to disk, and renames it over `url`.
    static func write(_ data: Data, to url: URL) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(UUID().uuidString).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
            throw Failure(description: "cannot create \(temporary.path)")
        }
        do {
            let handle = try FileHandle(forWritingTo: temporary)
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            try handle.synchronize()
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        guard rename(temporary.path, url.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw Failure(description: "cannot rename onto \(url.path): errno \(errno)")
        }
    }
}
