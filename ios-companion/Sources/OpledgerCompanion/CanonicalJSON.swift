/// RFC 8785 JSON Canonicalization Scheme: members sorted by their UTF-16 code units, no
/// whitespace, numbers as ECMAScript prints them, strings with the minimal escapes. The node
/// hashes the canonical form of the received body, so the app's hash is the node's.
public enum CanonicalJSON {
    public static func serialize(_ value: JSONValue) throws -> String {
        var out = ""
        try write(value, to: &out)
        return out
    }

    public static func bytes(_ value: JSONValue) throws -> [UInt8] {
        Array(try serialize(value).utf8)
    }

    private static func write(_ value: JSONValue, to out: inout String) throws {
        switch value {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .number(let number): out += try format(number)
        case .string(let text): writeString(text, to: &out)
        case .array(let elements):
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += "," }
                try write(element, to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            let names = members.keys.sorted { Array($0.utf16).lexicographicallyPrecedes(Array($1.utf16)) }
            for (index, name) in names.enumerated() {
                if index > 0 { out += "," }
                writeString(name, to: &out)
                out += ":"
                try write(members[name]!, to: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    /// ECMAScript's Number::toString (ECMA-262 §6.1.6.1.20) from the shortest round-trip digits,
    /// which Swift's `description` of a Double gives.
    static func format(_ number: Double) throws -> String {
        guard number.isFinite else { throw JSONError.notANumber }
        if number == 0 { return "0" }
        let negative = number < 0
        let (digits, exponent) = shortestDigits(abs(number))
        let k = digits.count
        let n = exponent
        var text: String
        if k <= n && n <= 21 {
            text = digits + String(repeating: "0", count: n - k)
        } else if 0 < n && n <= 21 {
            text = String(digits.prefix(n)) + "." + String(digits.dropFirst(n))
        } else if -6 < n && n <= 0 {
            text = "0." + String(repeating: "0", count: -n) + digits
        } else {
            let e = n - 1
            let mantissa = k == 1 ? digits : String(digits.prefix(1)) + "." + String(digits.dropFirst())
            text = mantissa + "e" + (e < 0 ? "-" : "+") + String(abs(e))
        }
        return negative ? "-" + text : text
    }

    /// The decimal digits s (no leading or trailing zeros) and n with value = 0.s × 10^n.
    private static func shortestDigits(_ value: Double) -> (String, Int) {
        let description = value.description  // e.g. "99.8", "1e+21", "1e-06", "1.7976931348623157e+308"
        let parts = description.split(separator: "e", maxSplits: 1)
        let mantissa = String(parts[0])
        let exponent = parts.count > 1 ? Int(parts[1])! : 0
        let pointIndex = mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) }
            ?? mantissa.count
        var digits = mantissa.replacingOccurrences(of: ".", with: "")
        var n = pointIndex + exponent
        while digits.hasPrefix("0") {
            digits.removeFirst()
            n -= 1
        }
        while digits.hasSuffix("0") {
            digits.removeLast()
        }
        return (digits, n)
    }
}
