import Foundation
import XCTest
@testable import OpledgerCompanion

final class PortableCoreTests: XCTestCase {
    func testSHA256MatchesFIPS180Examples() {
        let sha256 = PortableSHA256()
        XCTAssertEqual(Encodings.hex(sha256.hash([])),
                       "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(Encodings.hex(sha256.hash(Array("abc".utf8))),
                       "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(Encodings.hex(sha256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(Encodings.hex(sha256.hash([UInt8](repeating: 0x61, count: 1_000))),
                       "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    /// RFC 8785 Appendix B's number examples and its sorting by UTF-16 code units.
    func testNumbersAndMemberOrderFollowRFC8785() throws {
        let numbers: [(String, String)] = [
            ("0", "0"), ("-0", "0"), ("1", "1"), ("-1", "-1"), ("1e21", "1e+21"), ("1e20", "100000000000000000000"),
            ("1e-7", "1e-7"), ("0.000001", "0.000001"), ("123e-20", "1.23e-18"), ("5e-324", "5e-324"),
            ("1.7976931348623157e308", "1.7976931348623157e+308"), ("333333333.33333329", "333333333.3333333"),
            ("9007199254740992", "9007199254740992"), ("295147905179352830000", "295147905179352830000"),
            ("4.50", "4.5"), ("2e-3", "0.002"), ("0.30000000000000004", "0.30000000000000004"),
        ]
        for (literal, expected) in numbers {
            XCTAssertEqual(try CanonicalJSON.format(Double(literal)!), expected, literal)
        }
        let sorted = try CanonicalJSON.serialize(JSONValue.parse(
            "{\"\\u20ac\":\"Euro\",\"\\r\":\"CR\",\"\\ufb33\":\"Hebrew\",\"1\":\"One\",\"\\ud83d\\ude00\":\"Smiley\",\"\\u0080\":\"Control\",\"\\u00f6\":\"o\"}"))
        XCTAssertEqual(sorted, "{\"\\r\":\"CR\",\"1\":\"One\",\"\u{80}\":\"Control\",\"ö\":\"o\",\"€\":\"Euro\",\"😀\":\"Smiley\",\"דּ\":\"Hebrew\"}")
    }

    func testWhatIsNotIJSONIsRefused() {
        for text in ["{\"a\":1,\"a\":2}", "\"\\ud800\"", "[1,]", "{\"a\":1} x", "1e400", "01", "\"\u{01}\""] {
            XCTAssertThrowsError(try JSONValue.parse(text), text)
        }
    }

    func testTheOperationIDsBytesAreRFC9562NetworkOrder() throws {
        let id = try XCTUnwrap(OperationID("8E7B6D9E-2F4C-4A7E-9B1D-3C5E7F9A1B2C"))
        XCTAssertEqual(id.description, "8e7b6d9e-2f4c-4a7e-9b1d-3c5e7f9a1b2c")
        XCTAssertEqual(Encodings.hex(id.bytes), "8e7b6d9e2f4c4a7e9b1d3c5e7f9a1b2c")
        XCTAssertNil(OperationID("8e7b6d9e2f4c4a7e9b1d3c5e7f9a1b2c"))
    }

    func testTheBackoffGrowsIsJitteredBoundedAndHonoursRetryAfter() {
        let top = RetryPolicy(maxAttempts: 10, baseDelay: 1, maxDelay: 30, random: { 1 })
        XCTAssertEqual((1...7).map { top.delay(afterFailedAttempts: $0, retryAfter: nil) }, [1, 2, 4, 8, 16, 30, 30])
        let half = RetryPolicy(baseDelay: 1, maxDelay: 30, random: { 0.5 })
        XCTAssertEqual(half.delay(afterFailedAttempts: 3, retryAfter: nil), 2)
        XCTAssertEqual(half.delay(afterFailedAttempts: 1, retryAfter: 7), 7)

        let now = Date(timeIntervalSince1970: 1_000_000_000)  // Sun, 09 Sep 2001 01:46:40 GMT
        XCTAssertEqual(RetryPolicy.retryAfter("120", now: now), 120)
        XCTAssertEqual(RetryPolicy.retryAfter("Sun, 09 Sep 2001 01:47:10 GMT", now: now), 30)
        XCTAssertNil(RetryPolicy.retryAfter("soon", now: now))
    }
}
