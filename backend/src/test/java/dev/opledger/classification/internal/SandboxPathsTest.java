package dev.opledger.classification.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A probe's path arguments stay inside its directory: relative, no {@code ..}, no symbolic link out. */
class SandboxPathsTest {

    private static final SandboxPaths PATHS = new SandboxPaths(List.of("path", "paths", "source", "destination"));

    @TempDir
    Path directory;

    @TempDir
    Path elsewhere;

    @ParameterizedTest
    @ValueSource(strings = {"/etc/passwd", "/", "\\\\server\\share", "~/notes", "C:\\notes", "..", "../x", "a/../../x",
            "a/..", "a\\..\\..\\x", "", "  ", "a\u0000b"})
    void aPathThatIsAbsoluteOrClimbsOutIsRefusedBeforeAnythingIsCalled(String path) {
        assertThat(PATHS.refusal(Map.of("path", path))).isPresent();
        assertThat(PATHS.refusal(Map.of("source", "ok.md", "destination", path))).isPresent();
        assertThat(PATHS.refusal(Map.of("paths", List.of("ok.md", path)))).isPresent();
        assertThat(PATHS.resolve(Map.of("path", path), directory)).isInstanceOf(SandboxPaths.Resolution.Outside.class);
    }

    /**
     * The property, over paths made of every piece an escape could be built from (jqwik is not in
     * this build: a seeded generator, so a failure repeats): a path is refused, or it is resolved
     * to an absolute path inside the directory. Never anything else.
     */
    @Test
    void everyGeneratedPathIsRefusedOrResolvedInsideTheDirectory() throws IOException {
        Files.createSymbolicLink(directory.resolve("out"), elsewhere);
        Files.createDirectories(directory.resolve("a/b"));
        Path real = directory.toRealPath();
        String[] pieces = {"a", "b", "out", "..", ".", "/", "\\", "~", "C:", "...", ".a", " ", "%2e%2e", "\u0000", "é"};
        var random = new java.util.Random(20261201);
        int resolvedInside = 0;
        for (int i = 0; i < 5_000; i++) {
            var path = new StringBuilder();
            int length = 1 + random.nextInt(6);
            for (int piece = 0; piece < length; piece++) {
                path.append(pieces[random.nextInt(pieces.length)]);
                if (random.nextBoolean()) {
                    path.append('/');
                }
            }
            var resolution = PATHS.resolve(Map.of("path", path.toString()), directory);
            if (resolution instanceof SandboxPaths.Resolution.Resolved resolved) {
                Path resolvedPath = Path.of((String) resolved.arguments().get("path"));
                assertThat(resolvedPath).as(path.toString()).isAbsolute().startsWithRaw(real);
                assertThat(resolvedPath.normalize()).as(path.toString()).isEqualTo(resolvedPath);
                assertThat(resolvedPath.startsWith(real.resolve("out"))).as(path.toString()).isFalse();
                resolvedInside++;
            }
        }
        assertThat(resolvedInside).as("the generator also makes paths that may be used").isPositive();
    }

    @Test
    void aPathArgumentThatIsNoStringIsRefused() {
        assertThat(PATHS.refusal(Map.of("path", 7))).hasValueSatisfying(reason -> assertThat(reason).contains("string"));
    }

    @Test
    void argumentsThatNameNoPathAreLeftAlone() {
        assertThat(PATHS.refusal(Map.of("content", "/etc/passwd and ../../x"))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"note.md", "a/b/c.md", "./note.md", "a/./b", "..note", "a..b/c", "a/b/"})
    void aRelativePathIsResolvedInsideTheDirectory(String path) throws IOException {
        var resolution = PATHS.resolve(Map.of("path", path, "content", "x"), directory);
        Path real = directory.toRealPath();

        assertThat(resolution).isInstanceOfSatisfying(SandboxPaths.Resolution.Resolved.class, resolved -> {
            assertThat(Path.of((String) resolved.arguments().get("path"))).startsWithRaw(real).isAbsolute();
            assertThat(resolved.arguments()).containsEntry("content", "x");
        });
    }

    @Test
    void aListOfPathsIsResolvedAsAList() throws IOException {
        var resolution = PATHS.resolve(Map.of("paths", List.of("a.md", "b/c.md")), directory);
        Path real = directory.toRealPath();

        assertThat(resolution).isInstanceOfSatisfying(SandboxPaths.Resolution.Resolved.class, resolved ->
                assertThat(resolved.arguments().get("paths")).isEqualTo(List.of(
                        real.resolve("a.md").toString(), real.resolve("b/c.md").toString())));
    }

    @Test
    void aSymbolicLinkLeadingOutOfTheDirectoryIsRefused() throws IOException {
        Files.createSymbolicLink(directory.resolve("out"), elsewhere);

        assertThat(PATHS.resolve(Map.of("path", "out"), directory)).isInstanceOfSatisfying(
                SandboxPaths.Resolution.Outside.class, outside -> assertThat(outside.reason()).contains("symbolic link"));
        assertThat(PATHS.resolve(Map.of("path", "out/new/file.md"), directory))
                .isInstanceOf(SandboxPaths.Resolution.Outside.class);
    }

    @Test
    void aDanglingSymbolicLinkLeadingOutIsRefused() throws IOException {
        Files.createSymbolicLink(directory.resolve("later"), elsewhere.resolve("not-yet"));

        assertThat(PATHS.resolve(Map.of("path", "later"), directory)).isInstanceOf(SandboxPaths.Resolution.Outside.class);
    }

    @Test
    void aSymbolicLinkThatStaysInsideIsFollowed() throws IOException {
        Files.createDirectories(directory.resolve("real"));
        Files.createSymbolicLink(directory.resolve("alias"), directory.resolve("real"));

        assertThat(PATHS.resolve(Map.of("path", "alias/note.md"), directory))
                .isInstanceOf(SandboxPaths.Resolution.Resolved.class);
    }
}
