import Foundation

/// A JSON value as I-JSON (RFC 7493) allows it: numbers are IEEE doubles, member names are unique.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    public subscript(member: String) -> JSONValue? {
        if case .object(let members) = self { return members[member] }
        return nil
    }
}

public enum JSONError: Error, Equatable, Sendable {
    /// Not JSON, or not I-JSON: the reason and the offset (in Unicode scalars) where it was found.
    case malformed(String, at: Int)
    /// NaN and infinities have no JSON form.
    case notANumber
}

extension JSONValue {
    /// Parses I-JSON: UTF-8 JSON with unique member names and no lone surrogates, as the node does.
    public static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        guard let text = String(bytes: bytes, encoding: .utf8) else {
            throw JSONError.malformed("not UTF-8", at: 0)
        }
        return try parse(text)
    }

    public static func parse(_ text: String) throws -> JSONValue {
        var parser = Parser(scalars: Array(text.unicodeScalars))
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.atEnd else { throw parser.error("data after the value") }
        return value
    }
}

private struct Parser {
    let scalars: [Unicode.Scalar]
    var position = 0
    static let maxDepth = 64

    var atEnd: Bool { position >= scalars.count }

    func error(_ reason: String) -> JSONError { .malformed(reason, at: position) }

    mutating func skipWhitespace() {
        while !atEnd, [" ", "\t", "\n", "\r"].contains(scalars[position]) { position += 1 }
    }

    mutating func expect(_ literal: String) throws {
        for scalar in literal.unicodeScalars {
            guard !atEnd, scalars[position] == scalar else { throw error("expected \(literal)") }
            position += 1
        }
    }

    mutating func value(depth: Int) throws -> JSONValue {
        guard depth <= Self.maxDepth else { throw error("nested deeper than \(Self.maxDepth) levels") }
        guard !atEnd else { throw error("a value is missing") }
        switch scalars[position] {
        case "{": return try object(depth: depth)
        case "[": return try array(depth: depth)
        case "\"": return .string(try string())
        case "t": try expect("true"); return .bool(true)
        case "f": try expect("false"); return .bool(false)
        case "n": try expect("null"); return .null
        default: return .number(try number())
        }
    }

    mutating func object(depth: Int) throws -> JSONValue {
        position += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if !atEnd, scalars[position] == "}" { position += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard !atEnd, scalars[position] == "\"" else { throw error("expected a member name") }
            let name = try string()
            guard members[name] == nil else { throw error("duplicate member name \"\(name)\"") }
            skipWhitespace()
            try expect(":")
            skipWhitespace()
            members[name] = try value(depth: depth + 1)
            skipWhitespace()
            guard !atEnd else { throw error("unterminated object") }
            if scalars[position] == "," { position += 1; continue }
            try expect("}")
            return .object(members)
        }
    }

    mutating func array(depth: Int) throws -> JSONValue {
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if !atEnd, scalars[position] == "]" { position += 1; return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try value(depth: depth + 1))
            skipWhitespace()
            guard !atEnd else { throw error("unterminated array") }
            if scalars[position] == "," { position += 1; continue }
            try expect("]")
            return .array(elements)
        }
    }

    mutating func string() throws -> String {
        position += 1
        var out = String.UnicodeScalarView()
        while true {
            guard !atEnd else { throw error("unterminated string") }
            let scalar = scalars[position]
            position += 1
            switch scalar {
            case "\"":
                return String(out)
            case "\\":
                guard !atEnd else { throw error("unterminated escape") }
                let escaped = scalars[position]
                position += 1
                switch escaped {
                case "\"": out.append("\"")
                case "\\": out.append("\\")
                case "/": out.append("/")
                case "b": out.append("\u{08}")
                case "f": out.append("\u{0C}")
                case "n": out.append("\n")
                case "r": out.append("\r")
                case "t": out.append("\t")
                case "u": out.append(try unicodeEscape())
                default: throw error("unknown escape \\\(escaped)")
                }
            default:
                guard scalar.value >= 0x20 else { throw error("unescaped control character in a string") }
                out.append(scalar)
            }
        }
    }

    /// `\uXXXX`, combining a surrogate pair; a lone surrogate is not I-JSON.
    mutating func unicodeEscape() throws -> Unicode.Scalar {
        let first = try hex4()
        if (0xD800...0xDBFF).contains(first) {
            guard position + 1 < scalars.count, scalars[position] == "\\", scalars[position + 1] == "u" else {
                throw error("a lone surrogate")
            }
            position += 2
            let second = try hex4()
            guard (0xDC00...0xDFFF).contains(second) else { throw error("a lone surrogate") }
            return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
        }
        guard let scalar = Unicode.Scalar(first) else { throw error("a lone surrogate") }
        return scalar
    }

    mutating func hex4() throws -> UInt32 {
        guard position + 4 <= scalars.count else { throw error("a short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = UInt32(String(scalars[position]), radix: 16) else { throw error("not a hex digit") }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    mutating func number() throws -> Double {
        let start = position
        if !atEnd, scalars[position] == "-" { position += 1 }
        guard !atEnd, ("0"..."9").contains(scalars[position]) else { throw error("not a JSON value") }
        if scalars[position] == "0" {
            position += 1
        } else {
            digits()
        }
        if !atEnd, scalars[position] == "." {
            position += 1
            guard !atEnd, ("0"..."9").contains(scalars[position]) else { throw error("a digit must follow '.'") }
            digits()
        }
        if !atEnd, scalars[position] == "e" || scalars[position] == "E" {
            position += 1
            if !atEnd, scalars[position] == "+" || scalars[position] == "-" { position += 1 }
            guard !atEnd, ("0"..."9").contains(scalars[position]) else { throw error("a digit must follow 'e'") }
            digits()
        }
        var literal = String.UnicodeScalarView()
        literal.append(contentsOf: scalars[start..<position])
        guard let value = Double(String(literal)), value.isFinite else {
            throw error("a number outside the range of a double")
        }
        return value
    }

    mutating func digits() {
        while !atEnd, ("0"..."9").contains(scalars[position]) { position += 1 }
    }
}
