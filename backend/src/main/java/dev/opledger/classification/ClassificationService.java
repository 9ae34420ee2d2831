package dev.opledger.classification;

import dev.opledger.classification.internal.ClassificationRepository;
import dev.opledger.classification.internal.ToolClassCache;
import dev.opledger.mcp.ListedTool;
import dev.opledger.mcp.ToolClient;
import dev.opledger.mcp.ToolHints;
import dev.opledger.mcp.ToolRef;
import dev.opledger.mcp.ToolServer;
import dev.opledger.mcp.ToolTransportException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Service;

/**
 * The registry of tool servers and tools, and the repeat class and retry policy of each tool.
 *
 * <p>A tool's first class comes from configuration if set there, else from its MCP annotations
 * (readOnlyHint → READ, idempotentHint → IDEMPOTENT, anything else → NEVER_REPEAT: KEYED and
 * CHECK_THEN_WRITE cannot be read from annotations), with its source recorded. Configuration then
 * overrides annotations; probes and admins override both.
 *
 * <p>{@link #discover} lists a server's tools ({@code tools/list}) and records new ones; for a
 * tool it holds already, a changed input schema or annotations, or a tool no longer listed, is
 * flagged for review ({@link ToolChange}) and not applied: the class stays what it was.
 *
 * <p>{@link #classOf} is what the effect gateway asks for every effect: it is served from this
 * node's cache, which every node drops a tool from when any node changes it (PostgreSQL
 * LISTEN/NOTIFY, see {@code RegistryNotifications}).
 */
@Service
public class ClassificationService {

    private static final Logger log = LoggerFactory.getLogger(ClassificationService.class);

    private final ClassificationRepository repository;
    private final ToolClassesProperties configured;
    private final ToolClassCache cache;
    private final ObjectProvider<ToolClient> tools;

    ClassificationService(ClassificationRepository repository, ToolClassesProperties configured, ToolClassCache cache,
            ObjectProvider<ToolClient> tools) {
        this.repository = repository;
        this.configured = configured;
        this.cache = cache;
        this.tools = tools;
    }

    /**
     * The tool's class, from this node's cache when it holds it; otherwise read and, the first
     * time (or when configuration changed), recorded from configuration or the tool's hints.
     */
    public ToolClass classOf(ToolRef tool, Supplier<Optional<ToolHints>> hints) {
        ToolClass cached = cache.get(tool);
        if (cached != null) {
            return cached;
        }
        long readAt = cache.generation();
        Optional<ToolClass> recorded = read(tool, hints);
        if (recorded.isEmpty()) {
            // not recorded: the server may only be unreachable now, and a recorded guess would stick
            return new ToolClass(tool.server(), tool.tool(), RepeatClass.NEVER_REPEAT, ClassSource.ANNOTATION, null,
                    RetryPolicy.DEFAULTS, "no annotations seen: assumed never-repeat", 0);
        }
        cache.put(tool, recorded.get(), readAt);
        return recorded.get();
    }

    /** The tool's class if this node's cache holds it (no statement); empty when it must be read ({@link #classOf}). */
    public Optional<ToolClass> cached(ToolRef tool) {
        return Optional.ofNullable(cache.get(tool));
    }

    private Optional<ToolClass> read(ToolRef tool, Supplier<Optional<ToolHints>> hints) {
        Optional<ToolClass> recorded = repository.find(tool.server(), tool.tool());
        Optional<ToolClass> fromConfiguration = fromConfiguration(tool);
        if (fromConfiguration.isPresent()) {
            if (recorded.isEmpty() || recorded.get().source() == ClassSource.ANNOTATION
                    || (recorded.get().source() == ClassSource.CONFIGURATION
                            && !sameSetting(recorded.get(), fromConfiguration.get()))) {
                return Optional.of(repository.record(fromConfiguration.get(), null, null));
            }
            return recorded;
        }
        if (recorded.isPresent()) {
            return recorded;
        }
        Optional<ToolHints> annotations = hints.get();
        return annotations.map(found -> repository.record(fromAnnotations(tool, found), found, null));
    }

    /**
     * Records a class (a probe's or an admin's, or configuration's), unless one from a stronger
     * source is recorded; every node follows within a second. Returns what is recorded afterwards.
     */
    public ToolClass record(ToolClass toolClass, String actor) {
        ToolClass recorded = repository.record(toolClass, null, actor);
        cache.drop(new ToolRef(toolClass.server(), toolClass.tool()));
        return recorded;
    }

    /**
     * A person's class for the tool, applied only if its entry is still at {@code expectedVersion};
     * false (and nothing changed) otherwise. Every node follows within a second.
     */
    boolean update(ToolClass toolClass, long expectedVersion, String actor) {
        boolean updated = repository.update(toolClass, expectedVersion, actor);
        if (updated) {
            cache.drop(new ToolRef(toolClass.server(), toolClass.tool()));
        }
        return updated;
    }

    /**
     * A person's decision on a flagged change, with the reason. Accepting applies what the server
     * lists (for annotations of a tool classified from annotations, also the class they give);
     * rejecting keeps the registry as it is, and the same listing is not flagged again. Every node
     * follows within a second. Auditing the decision is the caller's (the console's) part.
     */
    public ChangeResolution resolve(long changeId, boolean accept, String actor, String reason) {
        Optional<ToolChange> change = repository.change(changeId);
        if (change.isEmpty()) {
            return new ChangeResolution.NotFound(changeId);
        }
        var ref = new ToolRef(change.get().server(), change.get().tool());
        ToolClass derived = null;
        if (accept && change.get().kind() == ToolChange.Kind.ANNOTATIONS && change.get().listed() != null) {
            derived = fromAnnotations(ref, repository.hintsOf(change.get().listed()));
        }
        if (!repository.resolve(changeId, accept, derived, actor, reason)) {
            return new ChangeResolution.AlreadyResolved(changeId, repository.change(changeId).orElseThrow().status());
        }
        cache.drop(ref);
        return new ChangeResolution.Resolved(accept ? ToolChange.Status.ACCEPTED : ToolChange.Status.REJECTED,
                repository.tool(ref.server(), ref.tool()).orElseThrow());
    }

    /** A flagged change, open or resolved. */
    Optional<ToolChange> change(long id) {
        return repository.change(id);
    }

    /** Every recorded class. */
    public List<ToolClass> all() {
        return repository.all();
    }

    /** The configured servers as last discovered (a server never discovered is not listed). */
    public List<RegisteredServer> servers() {
        return repository.servers();
    }

    /** The server's tools in the registry, each with its open changes. */
    public List<RegisteredTool> tools(String server) {
        return repository.tools(server);
    }

    /** One tool of the registry, with its open changes. */
    public Optional<RegisteredTool> tool(ToolRef tool) {
        return repository.tool(tool.server(), tool.tool());
    }

    /** Discovers every configured server, one after the other; a server that cannot be listed is reported, not thrown. */
    public List<Discovery> discoverAll() {
        List<Discovery> discoveries = new ArrayList<>();
        for (ToolServer server : tools.getObject().servers()) {
            try {
                discoveries.add(discover(server));
            } catch (RuntimeException e) {
                // one server's trouble (an answer the registry cannot store) must not keep the others undiscovered
                log.warn("discovery of MCP server {} failed", server.name(), e);
                discoveries.add(new Discovery(server.name(), 0, 0, 0, String.valueOf(e.getMessage())));
            }
        }
        return discoveries;
    }

    /**
     * Lists the server's tools now and records what is new; what changed on a tool the registry
     * holds is flagged, never applied.
     *
     * @throws IllegalArgumentException if no server of that name is configured
     */
    public Discovery discover(String server) {
        return discover(tools.getObject().servers().stream().filter(configured -> configured.name().equals(server))
                .findFirst().orElseThrow(() -> new IllegalArgumentException("no MCP server '" + server
                        + "' is configured (opledger.mcp.servers)")));
    }

    private Discovery discover(ToolServer server) {
        List<ListedTool> listed;
        try {
            listed = tools.getObject().list(server.name());
        } catch (ToolTransportException e) {
            log.warn("discovery of MCP server {}: {}", server.name(), e.getMessage());
            repository.recordDiscovery(server, e.getMessage());
            return new Discovery(server.name(), 0, 0, 0, e.getMessage());
        }
        int added = 0;
        int flagged = 0;
        for (ListedTool tool : listed) {
            var ref = new ToolRef(server.name(), tool.name());
            Optional<ClassificationRepository.Comparison> comparison = repository.compare(server.name(), tool);
            if (comparison.isEmpty()) {
                repository.insertListed(fromConfiguration(ref).orElseGet(() -> fromAnnotations(ref, tool.hints())), tool);
                added++;
                continue;
            }
            var seen = comparison.get();
            if (seen.neverListed()) {
                repository.storeFirstListing(server.name(), tool);
                continue;
            }
            Map<String, Object> annotations = ClassificationRepository.annotations(tool.hints());
            if (!seen.sameSchema() && !repository.rejected(server.name(), tool.name(), ToolChange.Kind.SCHEMA,
                    tool.inputSchema())) {
                repository.flag(server.name(), tool.name(), ToolChange.Kind.SCHEMA, tool.inputSchema());
                flagged++;
            }
            if (!seen.sameAnnotations() && !repository.rejected(server.name(), tool.name(), ToolChange.Kind.ANNOTATIONS,
                    annotations)) {
                repository.flag(server.name(), tool.name(), ToolChange.Kind.ANNOTATIONS, annotations);
                flagged++;
            }
            if (!seen.listed()) {
                repository.markListed(server.name(), tool.name());
            }
        }
        for (String missing : repository.listedToolsMissingFrom(server.name(), listed.stream().map(ListedTool::name).toList())) {
            repository.flag(server.name(), missing, ToolChange.Kind.REMOVED, null);
            flagged++;
        }
        repository.recordDiscovery(server, null);
        if (flagged > 0) {
            log.warn("discovery of MCP server {}: {} change(s) of its tools flagged for review", server.name(), flagged);
        }
        log.info("discovered {} tool(s) of MCP server {} ({} new)", listed.size(), server.name(), added);
        return new Discovery(server.name(), listed.size(), added, flagged, null);
    }

    private Optional<ToolClass> fromConfiguration(ToolRef tool) {
        return Optional.ofNullable(configured.classes().get(tool.server())).map(tools -> tools.get(tool.tool()))
                .map(setting -> new ToolClass(tool.server(), tool.tool(), setting.repeatClass(), ClassSource.CONFIGURATION,
                        setting.check(), setting.retry(),
                        setting.reason() == null ? "set in opledger.tools.classes" : setting.reason(), 0));
    }

    private static ToolClass fromAnnotations(ToolRef tool, ToolHints hints) {
        return new ToolClass(tool.server(), tool.tool(), derive(hints), ClassSource.ANNOTATION, null, RetryPolicy.DEFAULTS,
                "from MCP annotations " + describe(hints), 0);
    }

    /** Whether a recorded class is what a setting says (the version aside). */
    private static boolean sameSetting(ToolClass recorded, ToolClass wanted) {
        return recorded.repeatClass() == wanted.repeatClass() && recorded.source() == wanted.source()
                && Objects.equals(recorded.check(), wanted.check()) && recorded.retry().equals(wanted.retry())
                && Objects.equals(recorded.reason(), wanted.reason());
    }

    /** What annotations alone allow: a read-only tool reads, only an idempotent write may be repeated blindly. */
    static RepeatClass derive(ToolHints hints) {
        if (Boolean.TRUE.equals(hints.readOnly())) {
            return RepeatClass.READ;
        }
        if (Boolean.TRUE.equals(hints.idempotent())) {
            return RepeatClass.IDEMPOTENT;
        }
        return RepeatClass.NEVER_REPEAT;
    }

    private static String describe(ToolHints hints) {
        return "(readOnly=" + hints.readOnly() + ", idempotent=" + hints.idempotent() + ", destructive="
                + hints.destructive() + ")";
    }
}
