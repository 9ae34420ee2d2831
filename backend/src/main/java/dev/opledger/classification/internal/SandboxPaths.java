package dev.opledger.classification.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Keeps a probe's path arguments inside its directory. A path argument must be relative, without
 * a {@code ..} segment, and once resolved in the directory must not lead out of it through a
 * symbolic link (the real path of the deepest part that exists must be inside the directory's
 * real path). The arguments the tool gets name the resolved absolute paths.
 */
public final class SandboxPaths {

    private final List<String> pathArguments;

    public SandboxPaths(List<String> pathArguments) {
        this.pathArguments = List.copyOf(pathArguments);
    }

    /** Why the arguments may not be used in any sandbox (empty when they may): checked before anything is called. */
    public Optional<String> refusal(Map<String, Object> arguments) {
        for (String name : pathArguments) {
            if (!arguments.containsKey(name)) {
                continue;
            }
            for (Object value : values(arguments.get(name))) {
                Optional<String> problem = value instanceof String path ? lexical(name, path)
                        : Optional.of("argument '" + name + "' names a path and must be a string (or a list of strings)");
                if (problem.isPresent()) {
                    return problem;
                }
            }
        }
        return Optional.empty();
    }

    /** The arguments with their paths resolved in {@code directory}, or why one leads out of it. */
    public Resolution resolve(Map<String, Object> arguments, Path directory) {
        Optional<String> refused = refusal(arguments);
        if (refused.isPresent()) {
            return new Resolution.Outside(refused.get());
        }
        Path root;
        try {
            root = directory.toRealPath();
        } catch (IOException e) {
            return new Resolution.Outside("the sandbox directory " + directory + " cannot be read: " + e.getMessage());
        }
        Map<String, Object> resolved = new LinkedHashMap<>(arguments);
        for (String name : pathArguments) {
            Object value = arguments.get(name);
            if (value == null) {
                continue;
            }
            List<String> paths = new ArrayList<>();
            for (Object path : values(value)) {
                Path inside = root.resolve((String) path).normalize();
                Optional<String> escape = escape(name, (String) path, inside, root);
                if (escape.isPresent()) {
                    return new Resolution.Outside(escape.get());
                }
                paths.add(inside.toString());
            }
            resolved.put(name, value instanceof List<?> ? List.copyOf(paths) : paths.getFirst());
        }
        return new Resolution.Resolved(resolved);
    }

    /** Arguments resolved in a probe's directory, or refused. */
    public sealed interface Resolution {

        record Resolved(Map<String, Object> arguments) implements Resolution {
        }

        record Outside(String reason) implements Resolution {
        }
    }

    private static Optional<String> lexical(String name, String path) {
        if (path.isBlank()) {
            return Optional.of("argument '" + name + "' is empty: name a path inside the probe's directory");
        }
        if (path.indexOf('\0') >= 0) {
            return Optional.of("argument '" + name + "' contains a NUL character");
        }
        if (path.startsWith("/") || path.startsWith("\\") || path.startsWith("~") || path.matches("^[A-Za-z]:.*")) {
            return Optional.of("argument '" + name + "' is an absolute path (" + path + "): a probe's paths are relative "
                    + "to its own directory in the sandbox");
        }
        for (String segment : path.split("[/\\\\]")) {
            if (segment.equals("..")) {
                return Optional.of("argument '" + name + "' leads out of the sandbox through '..' (" + path + ")");
            }
        }
        try {
            Path.of(path);
        } catch (InvalidPathException e) {
            return Optional.of("argument '" + name + "' is not a path: " + e.getMessage());
        }
        return Optional.empty();
    }

    private static Optional<String> escape(String name, String given, Path inside, Path root) {
        if (!inside.startsWith(root)) {
            return Optional.of("argument '" + name + "' leads out of the sandbox (" + given + ")");
        }
        // the deepest part that exists: a symbolic link anywhere on the way is followed by the server
        Path existing = inside;
        while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return Optional.of("argument '" + name + "' is not under the sandbox (" + given + ")");
        }
        try {
            Path real = Files.isSymbolicLink(existing) && !Files.exists(existing) ? Files.readSymbolicLink(existing)
                    : existing.toRealPath();
            if (!real.isAbsolute()) {
                real = existing.getParent().resolve(real).normalize();
            }
            if (!real.startsWith(root)) {
                return Optional.of("argument '" + name + "' leads out of the sandbox through a symbolic link (" + given
                        + " → " + real + ")");
            }
        } catch (IOException e) {
            return Optional.of("argument '" + name + "' cannot be resolved in the sandbox: " + e.getMessage());
        }
        return Optional.empty();
    }

    private static List<?> values(Object value) {
        return value instanceof List<?> list ? list : java.util.Collections.singletonList(value);
    }
}
