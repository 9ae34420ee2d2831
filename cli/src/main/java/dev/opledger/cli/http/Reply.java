package dev.opledger.cli.http;

import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/** A node's answer: the status, the headers (names lowercase) and the body as text. */
public record Reply(int status, Map<String, List<String>> headers, String body) {

    public Reply {
        Map<String, List<String>> lowercase = new TreeMap<>();
        headers.forEach((name, values) -> lowercase.merge(name.toLowerCase(Locale.ROOT), List.copyOf(values),
                (first, second) -> Stream.concat(first.stream(), second.stream()).toList()));
        headers = Collections.unmodifiableMap(lowercase);
    }

    public boolean successful() {
        return status >= 200 && status < 300;
    }

    public Optional<String> header(String name) {
        List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.getFirst());
    }
}
