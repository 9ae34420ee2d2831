package dev.opledger.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** A node started from the executable jar: where it answers and where its output goes. */
public record RunningNode(URI base, Path log) {

    public URI uri(String path) {
        return base.resolve(path);
    }

    /** The last lines the node wrote, for failure messages. */
    public String logTail(int lines) {
        try {
            if (!Files.exists(log)) {
                return "(no output yet)";
            }
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join(System.lineSeparator(), all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
