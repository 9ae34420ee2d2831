#if os(Linux)
import Foundation
import Glibc

/// A software P-256 key from the system's OpenSSL (libcrypto.so.3, which Debian's swiftlang
/// already depends on through libcurl), loaded with `dlopen` so the package needs no C module
/// or headers: the key is generated in this process and never leaves it; only its public point
/// goes to the development authority to be attested. Test-only: an app uses DeviceCheck.
final class SoftwareP256: @unchecked Sendable {
    enum Failure: Error, CustomStringConvertible {
        case noLibcrypto(String)
        case missing(String)
        case failed(String)

        var description: String {
            switch self {
            case .noLibcrypto(let why): return "libcrypto.so.3 could not be loaded: \(why)"
            case .missing(let symbol): return "libcrypto has no \(symbol)"
            case .failed(let call): return "\(call) failed"
            }
        }
    }

    private typealias NewByCurveName = @convention(c) (Int32) -> OpaquePointer?
    private typealias GenerateKey = @convention(c) (OpaquePointer?) -> Int32
    private typealias Get0 = @convention(c) (OpaquePointer?) -> OpaquePointer?
    private typealias PointToOctets = @convention(c) (OpaquePointer?, OpaquePointer?, Int32,
                                                      UnsafeMutablePointer<UInt8>?, Int, OpaquePointer?) -> Int
    private typealias Sign = @convention(c) (Int32, UnsafePointer<UInt8>?, Int32, UnsafeMutablePointer<UInt8>?,
                                             UnsafeMutablePointer<UInt32>?, OpaquePointer?) -> Int32
    private typealias Size = @convention(c) (OpaquePointer?) -> Int32
    private typealias Free = @convention(c) (OpaquePointer?) -> Void

    private static let prime256v1: Int32 = 415 // NID_X9_62_prime256v1
    private static let uncompressed: Int32 = 4 // POINT_CONVERSION_UNCOMPRESSED

    private let key: OpaquePointer
    private let sign: Sign
    private let size: Size
    private let free: Free
    private let lock = NSLock()
    /// The 65-byte uncompressed point, as App Attest hashes it into the keyId.
    let publicPoint: [UInt8]

    init() throws {
        guard let library = dlopen("libcrypto.so.3", RTLD_NOW) else {
            throw Failure.noLibcrypto(String(cString: dlerror()))
        }
        func symbol<T>(_ name: String, _ type: T.Type) throws -> T {
            guard let address = dlsym(library, name) else { throw Failure.missing(name) }
            return unsafeBitCast(address, to: type)
        }
        let newKey = try symbol("EC_KEY_new_by_curve_name", NewByCurveName.self)
        let generate = try symbol("EC_KEY_generate_key", GenerateKey.self)
        let group = try symbol("EC_KEY_get0_group", Get0.self)
        let publicKey = try symbol("EC_KEY_get0_public_key", Get0.self)
        let toOctets = try symbol("EC_POINT_point2oct", PointToOctets.self)
        sign = try symbol("ECDSA_sign", Sign.self)
        size = try symbol("ECDSA_size", Size.self)
        free = try symbol("EC_KEY_free", Free.self)
        guard let key = newKey(Self.prime256v1) else { throw Failure.failed("EC_KEY_new_by_curve_name") }
        guard generate(key) == 1 else {
            free(key)
            throw Failure.failed("EC_KEY_generate_key")
        }
        var point = [UInt8](repeating: 0, count: 65)
        let written = point.withUnsafeMutableBufferPointer {
            toOctets(group(key), publicKey(key), Self.uncompressed, $0.baseAddress, 65, nil)
        }
        guard written == 65 else {
            free(key)
            throw Failure.failed("EC_POINT_point2oct")
        }
        self.key = key
        self.publicPoint = point
    }

    deinit {
        free(key)
    }

    /// ECDSA over a 32-byte digest; the signature DER-encoded (X9.62), as App Attest's is.
    func signature(ofDigest digest: [UInt8]) throws -> [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        var signature = [UInt8](repeating: 0, count: Int(size(key)))
        var length: UInt32 = UInt32(signature.count)
        let ok = digest.withUnsafeBufferPointer { digestBytes in
            signature.withUnsafeMutableBufferPointer {
                sign(0, digestBytes.baseAddress, Int32(digest.count), $0.baseAddress, &length, key)
            }
        }
        guard ok == 1 else { throw Failure.failed("ECDSA_sign") }
        return Array(signature.prefix(Int(length)))
    }
}
#endif
