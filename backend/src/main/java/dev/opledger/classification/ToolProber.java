package dev.opledger.classification;

import dev.opledger.classification.internal.ProbeRepository;
import dev.opledger.classification.internal.SandboxPaths;
import dev.opledger.mcp.ToolClient;
import dev.opledger.mcp.ToolRef;
import dev.opledger.mcp.ToolReply;
import dev.opledger.mcp.ToolTransportException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Service;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The double-run probe: runs a write tool twice with the same arguments in its server's declared
 * sandbox, reads the sandbox's state through the server's read tools before, after the first and
 * after the second run, and records what the second run did and the class that suggests.
 *
 * <p>Each probe works in a new directory of its own ({@code <sandbox>/probe-<id>-<random>}), and one probe of a
 * tool runs at a time on all nodes (tool_probe_running_uq): the state a probe reads is only what
 * its own calls made. The tool is called directly, not through the effect gateway: a probe is
 * not an operation's effect.
 */
@Service
class ToolProber {

    private static final Logger log = LoggerFactory.getLogger(ToolProber.class);
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };
    /** A RUNNING probe older than this was left by a node that stopped. */
    static final Duration STALE = Duration.ofMinutes(10);
    private static final int MAX_REPLY = 2000;

    private final ClassificationService classification;
    private final ToolClassesProperties configured;
    private final ProbeRepository probes;
    private final ObjectProvider<ToolClient> tools;
    private final JsonMapper json;

    ToolProber(ClassificationService classification, ToolClassesProperties configured, ProbeRepository probes,
            ObjectProvider<ToolClient> tools, JsonMapper json) {
        this.classification = classification;
        this.configured = configured;
        this.probes = probes;
        this.tools = tools;
        this.json = json;
    }

    /** Whether the server declares a sandbox, so its write tools can be probed. */
    boolean sandboxed(String server) {
        return configured.sandboxes().containsKey(server);
    }

    /** Reads a request written as JSON: {@code {"prepare": [{"tool": …, "arguments": {…}}], "arguments": {…}}}. */
    Optional<ProbeRequest> parse(String request) {
        try {
            Map<String, Object> read = json.readValue(request, MAP);
            List<ProbeRequest.Call> prepare = new ArrayList<>();
            if (read.get("prepare") instanceof List<?> calls) {
                for (Object call : calls) {
                    if (!(call instanceof Map<?, ?> fields) || !(fields.get("tool") instanceof String tool)) {
                        return Optional.empty();
                    }
                    prepare.add(new ProbeRequest.Call(tool, object(fields.get("arguments"))));
                }
            } else if (read.containsKey("prepare")) {
                return Optional.empty();
            }
            if (read.containsKey("arguments") && !(read.get("arguments") instanceof Map<?, ?>)) {
                return Optional.empty();
            }
            return Optional.of(new ProbeRequest(prepare, object(read.get("arguments"))));
        } catch (JacksonException | IllegalArgumentException | NullPointerException e) {
            return Optional.empty();
        }
    }

    ProbeOutcome probe(ToolRef tool, ProbeRequest request, String actor) {
        Optional<RegisteredTool> registered = classification.tool(tool);
        if (registered.isEmpty()) {
            return refused(tool, "the registry has no such tool");
        }
        if (registered.get().toolClass().repeatClass() == RepeatClass.READ) {
            return refused(tool, "it is a read (not an effect): there is nothing to probe");
        }
        ToolClassesProperties.Sandbox sandbox = configured.sandboxes().get(tool.server());
        if (sandbox == null) {
            return refused(tool, "server " + tool.server() + " declares no sandbox (opledger.tools.sandboxes."
                    + tool.server() + ".directory): its tools are never probed");
        }
        var paths = new SandboxPaths(sandbox.pathArguments());
        for (ProbeRequest.Call call : request.prepare()) {
            if (classification.tool(new ToolRef(tool.server(), call.tool())).isEmpty()) {
                return refused(tool, "preparing calls " + call.tool() + ", which server " + tool.server() + " does not have");
            }
            Optional<String> outside = paths.refusal(call.arguments());
            if (outside.isPresent()) {
                return refused(tool, "preparing with " + call.tool() + ": " + outside.get());
            }
        }
        Optional<String> outside = paths.refusal(request.arguments());
        if (outside.isPresent()) {
            return refused(tool, outside.get());
        }
        long started = System.nanoTime();
        Optional<Long> id = probes.start(tool.server(), tool.tool(), sandbox.directory().toString(),
                json.writeValueAsString(calls(request.prepare())), json.writeValueAsString(request.arguments()), actor, STALE);
        if (id.isEmpty()) {
            return probes.of(tool.server(), tool.tool()).stream().filter(p -> p.status() == ToolProbe.Status.RUNNING)
                    .findFirst().<ProbeOutcome>map(running -> new ProbeOutcome.AlreadyRunning(tool.server(), tool.tool(),
                            running.id(), running.startedAt()))
                    .orElseGet(() -> refused(tool, "another probe of the tool was running; try again"));
        }
        var run = new Run(tool, sandbox, paths, id.get(), started);
        try {
            return run.go(request);
        } catch (RuntimeException e) {
            // recorded, so the tool is not left looking probed-in-progress until the probe is stale
            log.warn("probe {} of {} stopped", id.get(), tool, e);
            return run.finish(null, null, null, null, "the probe stopped: " + e);
        }
    }

    private ProbeOutcome refused(ToolRef tool, String reason) {
        return new ProbeOutcome.Refused(tool.server(), tool.tool(), reason);
    }

    /** One probe, from its directory to its record. */
    private final class Run {

        private final ToolRef tool;
        private final ToolClassesProperties.Sandbox sandbox;
        private final SandboxPaths paths;
        private final long id;
        private final long started;
        private final Map<String, Object> evidence = new LinkedHashMap<>();
        private final List<String> reads = new ArrayList<>();
        private @Nullable Path directory;
        /** Why an argument resolved in the probe's directory leads out of it. */
        private String refusal = "";

        Run(ToolRef tool, ToolClassesProperties.Sandbox sandbox, SandboxPaths paths, long id, long started) {
            this.tool = tool;
            this.sandbox = sandbox;
            this.paths = paths;
            this.id = id;
            this.started = started;
        }

        ProbeOutcome go(ProbeRequest request) {
            Path own;
            try {
                Files.createDirectories(sandbox.directory());
                // a new directory, never one that is there already: a link planted at a guessable name is not followed
                own = Files.createTempDirectory(sandbox.directory(), "probe-" + id + "-");
            } catch (IOException e) {
                return finish(null, null, null, null, "the probe's directory in " + sandbox.directory()
                        + " cannot be made: " + e.getMessage());
            }
            directory = own;
            probes.sandbox(id, own.toString(), json.writeValueAsString(request.arguments()));
            evidence.put("sandbox", own.toString());
            evidence.put("reads", reads);
            List<Map<String, Object>> prepared = new ArrayList<>();
            evidence.put("prepared", prepared);
            for (ProbeRequest.Call call : request.prepare()) {
                Map<String, Object> arguments = resolved(call.arguments());
                if (arguments == null) {
                    return refusedInside();
                }
                ToolProbe.Run outcome = call(new ToolRef(tool.server(), call.tool()), arguments);
                prepared.add(Map.of("tool", call.tool(), "arguments", arguments, "outcome", outcome.outcome().name(),
                        "reply", outcome.reply()));
                if (outcome.outcome() != ToolProbe.Run.Outcome.OK) {
                    return finish(null, null, null, null, "preparing with " + call.tool() + " failed (" + outcome.outcome()
                            + ": " + outcome.reply() + "): the tool was not run");
                }
            }
            Map<String, Object> arguments = resolved(request.arguments());
            if (arguments == null) {
                return refusedInside();
            }
            probes.sandbox(id, own.toString(), json.writeValueAsString(arguments)); // as resolved
            Object before = observe("before");
            ToolProbe.Run first = call(tool, arguments);
            Object afterFirst = observe("afterFirst");
            ToolProbe.Run second = call(tool, arguments);
            Object afterSecond = observe("afterSecond");
            return verdict(before, first, afterFirst, second, afterSecond);
        }

        private @Nullable Map<String, Object> resolved(Map<String, Object> arguments) {
            return switch (paths.resolve(arguments, Objects.requireNonNull(directory))) {
                case SandboxPaths.Resolution.Resolved resolved -> resolved.arguments();
                case SandboxPaths.Resolution.Outside outside -> {
                    refusal = outside.reason();
                    yield null;
                }
            };
        }

        private ProbeOutcome refusedInside() {
            finish(null, null, null, null, "refused before any call of the tool: " + refusal);
            return new ProbeOutcome.Refused(tool.server(), tool.tool(), refusal);
        }

        private ProbeOutcome verdict(Object before, ToolProbe.Run first, Object afterFirst, ToolProbe.Run second,
                Object afterSecond) {
            if (first.outcome() == ToolProbe.Run.Outcome.UNKNOWN || second.outcome() == ToolProbe.Run.Outcome.UNKNOWN) {
                return finish(first, second, null, null, "a run got no answer: the probe shows nothing; run it again");
            }
            ToolProbe.SecondRun secondRun = !afterSecond.equals(afterFirst) ? ToolProbe.SecondRun.CHANGED_STATE
                    : second.outcome() == ToolProbe.Run.Outcome.ERROR ? ToolProbe.SecondRun.FAILED
                    : ToolProbe.SecondRun.NO_OP;
            if (first.outcome() == ToolProbe.Run.Outcome.ERROR) {
                return finish(first, second, secondRun, null, "the first run failed: the probe shows nothing about a "
                        + "repeat; check the arguments (and what preparing should make)");
            }
            if (afterFirst.equals(before)) {
                return finish(first, second, secondRun, null, "the first run changed nothing the read tools show: the "
                        + "probe shows nothing about a repeat");
            }
            return switch (secondRun) {
                case NO_OP -> finish(first, second, secondRun, RepeatClass.IDEMPOTENT, "the second run with the same "
                        + "arguments succeeded and changed nothing: a repeat is harmless");
                case FAILED -> finish(first, second, secondRun, RepeatClass.NEVER_REPEAT, "the second run failed and "
                        + "changed nothing: a retry after a lost answer would be told the effect failed although it landed");
                case CHANGED_STATE -> finish(first, second, secondRun, RepeatClass.NEVER_REPEAT, "the second run changed "
                        + "the state again: a repeat applies the effect twice");
            };
        }

        ProbeOutcome finish(ToolProbe.@Nullable Run first, ToolProbe.@Nullable Run second,
                ToolProbe.@Nullable SecondRun secondRun, @Nullable RepeatClass suggested, String explanation) {
            long wall = Duration.ofNanos(System.nanoTime() - started).toMillis();
            ToolProbe recorded = probes.finish(id, first, second, secondRun, suggested, explanation,
                    json.writeValueAsString(evidence), wall);
            log.info("probe {} of {}: {} in {} ms", id, tool, explanation, wall);
            return new ProbeOutcome.Probed(recorded);
        }

        private ToolProbe.Run call(ToolRef called, Map<String, Object> arguments) {
            long start = System.nanoTime();
            try {
                ToolReply reply = tools.getObject().call(called, arguments);
                return new ToolProbe.Run(reply.error() ? ToolProbe.Run.Outcome.ERROR : ToolProbe.Run.Outcome.OK,
                        shortened(reply.text()), Duration.ofNanos(System.nanoTime() - start).toMillis());
            } catch (ToolTransportException e) {
                return new ToolProbe.Run(ToolProbe.Run.Outcome.UNKNOWN, shortened(String.valueOf(e.getMessage())),
                        Duration.ofNanos(System.nanoTime() - start).toMillis());
            }
        }

        /** The probe directory's tree and every file's text, as the server's read tools show them. */
        private Object observe(String when) {
            Path own = Objects.requireNonNull(directory);
            Map<String, Object> state = new LinkedHashMap<>();
            ToolProbe.Run tree = call(new ToolRef(tool.server(), sandbox.treeTool()), Map.of("path", own.toString()));
            reads.add(when + ": " + sandbox.treeTool() + " .");
            if (tree.outcome() != ToolProbe.Run.Outcome.OK) {
                state.put("unreadable", tree.outcome() + ": " + tree.reply());
                evidence.put(when, state);
                return state;
            }
            Object entries;
            try {
                entries = json.readValue(tree.reply(), Object.class);
            } catch (JacksonException e) {
                state.put("unreadable", sandbox.treeTool() + " answered no JSON: " + tree.reply());
                evidence.put(when, state);
                return state;
            }
            state.put("tree", entries);
            Map<String, Object> files = new LinkedHashMap<>();
            readFiles(entries, "", files, when);
            state.put("files", files);
            evidence.put(when, state);
            return state;
        }

        private void readFiles(Object entries, String prefix, Map<String, Object> files, String when) {
            if (!(entries instanceof List<?> list)) {
                return;
            }
            for (Object entry : list) {
                if (!(entry instanceof Map<?, ?> fields) || !(fields.get("name") instanceof String name)) {
                    continue;
                }
                String relative = prefix + name;
                if ("directory".equals(fields.get("type"))) {
                    readFiles(fields.get("children"), relative + "/", files, when);
                } else {
                    ToolProbe.Run read = call(new ToolRef(tool.server(), sandbox.readTool()),
                            Map.of("path", Objects.requireNonNull(directory).resolve(relative).toString()));
                    reads.add(when + ": " + sandbox.readTool() + " " + relative);
                    files.put(relative, read.outcome() == ToolProbe.Run.Outcome.OK ? read.reply()
                            : read.outcome() + ": " + read.reply());
                }
            }
        }
    }

    private static List<Map<String, Object>> calls(List<ProbeRequest.Call> prepare) {
        return prepare.stream().map(call -> Map.<String, Object>of("tool", call.tool(), "arguments", call.arguments()))
                .toList();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(@Nullable Object value) {
        return value instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
    }

    private static String shortened(String text) {
        return text.length() <= MAX_REPLY ? text : text.substring(0, MAX_REPLY) + "…";
    }
}
