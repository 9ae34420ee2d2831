package dev.opledger.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Pattern;

/** The problem types docs/problems.md lists, read from the file, so an undocumented type fails a test. */
public final class DocumentedProblems {

    private static final Pattern ROW = Pattern.compile("^\\| `(https://opledger\\.dev/problems/[a-z0-9-]+)` \\|");

    private DocumentedProblems() {
    }

    public static Set<String> types() {
        Path docs = locate();
        Set<String> types = new LinkedHashSet<>();
        try {
            for (String line : Files.readAllLines(docs)) {
                var row = ROW.matcher(line);
                if (row.find()) {
                    types.add(row.group(1));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (types.isEmpty()) {
            throw new IllegalStateException(docs + " lists no problem types");
        }
        return Set.copyOf(types);
    }

    // failsafe runs in the module's directory; an IDE may run in the repository's
    private static Path locate() {
        for (Path candidate : new Path[] {Path.of("../docs/problems.md"), Path.of("docs/problems.md")}) {
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("docs/problems.md not found from " + Path.of("").toAbsolutePath());
    }
}
