package dev.opledger.classification.internal;

import dev.opledger.classification.ClassSource;
import dev.opledger.classification.LandedCheck;
import dev.opledger.classification.RegisteredServer;
import dev.opledger.classification.RegisteredTool;
import dev.opledger.classification.RepeatClass;
import dev.opledger.classification.RetryPolicy;
import dev.opledger.classification.ToolChange;
import dev.opledger.classification.ToolClass;
import dev.opledger.mcp.ListedTool;
import dev.opledger.mcp.ToolHints;
import dev.opledger.mcp.ToolServer;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The tables tool_server, tool_classification and tool_change. Every write to a tool's row or its
 * changes notifies {@value RegistryNotifications#CHANNEL} in the same transaction, so that every
 * node drops its cached class when (and only when) the write has committed.
 */
@Repository
public class ClassificationRepository {

    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };
    private static final String COLUMNS = """
            server, tool, repeat_class, source, check_tool, reason, check_arguments, check_landed_field,
            check_result_fields, max_calls, backoff_ms, call_timeout_ms, version""";
    private static final String TOOL_COLUMNS = COLUMNS + """
            , title, description, input_schema::text AS input_schema, read_only_hint, idempotent_hint,
            destructive_hint, open_world_hint, listed, discovered_at""";
    private static final String CHANGE_COLUMNS = """
            id, server, tool, kind, recorded::text AS recorded, listed::text AS listed, first_seen_at, last_seen_at, status""";

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transaction;
    private final JsonMapper json;

    ClassificationRepository(JdbcTemplate jdbc, PlatformTransactionManager transactions, JsonMapper json) {
        this.jdbc = jdbc;
        this.transaction = new TransactionTemplate(transactions);
        this.json = json;
    }

    public Optional<ToolClass> find(String server, String tool) {
        return jdbc.query("SELECT " + COLUMNS + " FROM tool_classification WHERE server = ? AND tool = ?",
                (row, n) -> toolClass(row), server, tool).stream().findFirst();
    }

    public List<ToolClass> all() {
        return jdbc.query("SELECT " + COLUMNS + " FROM tool_classification ORDER BY server, tool", (row, n) -> toolClass(row));
    }

    /**
     * Records a class unless one from a stronger source is there (ADMIN > PROBE > CONFIGURATION >
     * ANNOTATION); returns what is recorded afterwards.
     */
    public ToolClass record(ToolClass toolClass, @Nullable ToolHints hints, @Nullable String actor) {
        transaction.executeWithoutResult(status -> {
            int changed = jdbc.update("""
                    INSERT INTO tool_classification (server, tool, repeat_class, source, check_tool, reason,
                                                     read_only_hint, idempotent_hint, destructive_hint, updated_by,
                                                     check_arguments, check_landed_field, check_result_fields,
                                                     max_calls, backoff_ms, call_timeout_ms)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (server, tool) DO UPDATE SET repeat_class = excluded.repeat_class, source = excluded.source,
                        check_tool = excluded.check_tool, reason = excluded.reason,
                        read_only_hint = coalesce(excluded.read_only_hint, tool_classification.read_only_hint),
                        idempotent_hint = coalesce(excluded.idempotent_hint, tool_classification.idempotent_hint),
                        destructive_hint = coalesce(excluded.destructive_hint, tool_classification.destructive_hint),
                        check_arguments = excluded.check_arguments, check_landed_field = excluded.check_landed_field,
                        check_result_fields = excluded.check_result_fields, max_calls = excluded.max_calls,
                        backoff_ms = excluded.backoff_ms, call_timeout_ms = excluded.call_timeout_ms,
                        updated_at = now(), updated_by = excluded.updated_by, version = tool_classification.version + 1
                    WHERE array_position(ARRAY['ANNOTATION', 'CONFIGURATION', 'PROBE', 'ADMIN'], tool_classification.source)
                       <= array_position(ARRAY['ANNOTATION', 'CONFIGURATION', 'PROBE', 'ADMIN'], excluded.source)
                    """, toolClass.server(), toolClass.tool(), toolClass.repeatClass().name(), toolClass.source().name(),
                    toolClass.checkTool(), toolClass.reason(), hints == null ? null : hints.readOnly(),
                    hints == null ? null : hints.idempotent(), hints == null ? null : hints.destructive(), actor,
                    array(toolClass.check() == null ? null : toolClass.check().arguments()),
                    toolClass.check() == null ? null : toolClass.check().landedField(),
                    array(toolClass.check() == null ? null : toolClass.check().resultFields()),
                    toolClass.retry().maxCalls(), millis(toolClass.retry().backoff()), millis(toolClass.retry().callTimeout()));
            if (changed > 0) {
                notifyChanged(toolClass.server(), toolClass.tool());
            }
        });
        return find(toolClass.server(), toolClass.tool()).orElseThrow();
    }

    /**
     * A person's edit of a tool's class and retry policy, applied only if the row is still at
     * {@code expectedVersion} (optimistic locking: an edit made on a stale view changes nothing).
     * The hints and listing stay. False when the row has another version, or is not there.
     */
    public boolean update(ToolClass toolClass, long expectedVersion, String actor) {
        return Boolean.TRUE.equals(transaction.execute(status -> {
            int changed = jdbc.update("""
                    UPDATE tool_classification SET repeat_class = ?, source = ?, check_tool = ?, reason = ?,
                        check_arguments = ?, check_landed_field = ?, check_result_fields = ?,
                        max_calls = ?, backoff_ms = ?, call_timeout_ms = ?,
                        updated_at = now(), updated_by = ?, version = version + 1
                    WHERE server = ? AND tool = ? AND version = ?
                    """, toolClass.repeatClass().name(), toolClass.source().name(), toolClass.checkTool(),
                    toolClass.reason(), array(toolClass.check() == null ? null : toolClass.check().arguments()),
                    toolClass.check() == null ? null : toolClass.check().landedField(),
                    array(toolClass.check() == null ? null : toolClass.check().resultFields()),
                    toolClass.retry().maxCalls(), millis(toolClass.retry().backoff()), millis(toolClass.retry().callTimeout()),
                    actor, toolClass.server(), toolClass.tool(), expectedVersion);
            if (changed > 0) {
                notifyChanged(toolClass.server(), toolClass.tool());
            }
            return changed > 0;
        }));
    }

    /** A tool seen for the first time in a listing, with the class it starts with. */
    public void insertListed(ToolClass toolClass, ListedTool listed) {
        transaction.executeWithoutResult(status -> {
            int inserted = jdbc.update("""
                    INSERT INTO tool_classification (server, tool, repeat_class, source, check_tool, reason,
                        check_arguments, check_landed_field, check_result_fields, max_calls, backoff_ms, call_timeout_ms,
                        title, description, input_schema, annotations, read_only_hint, idempotent_hint, destructive_hint,
                        open_world_hint, listed, discovered_at, updated_by)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?, ?, ?, true, now(), 'discovery')
                    ON CONFLICT (server, tool) DO NOTHING
                    """, toolClass.server(), toolClass.tool(), toolClass.repeatClass().name(), toolClass.source().name(),
                    toolClass.checkTool(), toolClass.reason(),
                    array(toolClass.check() == null ? null : toolClass.check().arguments()),
                    toolClass.check() == null ? null : toolClass.check().landedField(),
                    array(toolClass.check() == null ? null : toolClass.check().resultFields()),
                    toolClass.retry().maxCalls(), millis(toolClass.retry().backoff()), millis(toolClass.retry().callTimeout()),
                    listed.title(), listed.description(), json(listed.inputSchema()), json(annotations(listed.hints())),
                    listed.hints().readOnly(), listed.hints().idempotent(), listed.hints().destructive(),
                    listed.hints().openWorld());
            if (inserted > 0) {
                notifyChanged(toolClass.server(), toolClass.tool());
            }
        });
    }

    /** How a listing compares with what the registry holds for the tool; empty when the registry has no row for it. */
    public Optional<Comparison> compare(String server, ListedTool listed) {
        return jdbc.query("""
                SELECT input_schema IS NULL AND annotations IS NULL, input_schema = ?::jsonb, annotations = ?::jsonb, listed
                FROM tool_classification WHERE server = ? AND tool = ?
                """, (row, n) -> new Comparison(row.getBoolean(1), row.getBoolean(2), row.getBoolean(3), row.getBoolean(4)),
                json(listed.inputSchema()), json(annotations(listed.hints())), server, listed.name()).stream().findFirst();
    }

    /** What the registry holds against a listing. */
    public record Comparison(boolean neverListed, boolean sameSchema, boolean sameAnnotations, boolean listed) {
    }

    /** The first listing of a tool the registry held already (from configuration or a call): recorded as it is. */
    public void storeFirstListing(String server, ListedTool listed) {
        transaction.executeWithoutResult(status -> {
            jdbc.update("""
                    UPDATE tool_classification SET title = ?, description = ?, input_schema = ?::jsonb, annotations = ?::jsonb,
                        read_only_hint = ?, idempotent_hint = ?, destructive_hint = ?, open_world_hint = ?, listed = true,
                        discovered_at = now(), updated_at = now(), version = version + 1
                    WHERE server = ? AND tool = ?
                    """, listed.title(), listed.description(), json(listed.inputSchema()), json(annotations(listed.hints())),
                    listed.hints().readOnly(), listed.hints().idempotent(), listed.hints().destructive(),
                    listed.hints().openWorld(), server, listed.name());
            notifyChanged(server, listed.name());
        });
    }

    /** A tool listed again after it was missing from a listing. */
    public void markListed(String server, String tool) {
        transaction.executeWithoutResult(status -> {
            jdbc.update("UPDATE tool_classification SET listed = true, updated_at = now() WHERE server = ? AND tool = ?",
                    server, tool);
            notifyChanged(server, tool);
        });
    }

    /**
     * Flags a difference for review, leaving the registry's value as it is; an open change of the
     * same kind is refreshed with the latest listing instead of repeated.
     */
    public void flag(String server, String tool, ToolChange.Kind kind, @Nullable Object listed) {
        String column = switch (kind) {
            case SCHEMA -> "input_schema";
            case ANNOTATIONS -> "annotations";
            case REMOVED -> "jsonb_build_object('listed', listed)";
        };
        transaction.executeWithoutResult(status -> {
            jdbc.update("""
                    INSERT INTO tool_change (server, tool, kind, recorded, listed)
                    SELECT server, tool, ?, %s, ?::jsonb FROM tool_classification WHERE server = ? AND tool = ?
                    ON CONFLICT (server, tool, kind) WHERE status = 'OPEN'
                    DO UPDATE SET listed = excluded.listed, last_seen_at = now()
                    """.formatted(column), kind.name(), listed == null ? null : json(listed), server, tool);
            if (kind == ToolChange.Kind.REMOVED) {
                jdbc.update("UPDATE tool_classification SET listed = false, updated_at = now() WHERE server = ? AND tool = ?",
                        server, tool);
            }
            notifyChanged(server, tool);
        });
    }

    /** Whether a person already rejected exactly this listing for the tool: it is not flagged again. */
    public boolean rejected(String server, String tool, ToolChange.Kind kind, @Nullable Object listed) {
        return Boolean.TRUE.equals(jdbc.queryForObject("""
                SELECT EXISTS (SELECT 1 FROM tool_change WHERE server = ? AND tool = ? AND kind = ? AND status = 'REJECTED'
                               AND listed IS NOT DISTINCT FROM ?::jsonb)
                """, Boolean.class, server, tool, kind.name(), listed == null ? null : json(listed)));
    }

    public Optional<ToolChange> change(long id) {
        return jdbc.query("SELECT " + CHANGE_COLUMNS + " FROM tool_change WHERE id = ?", (row, n) -> change(row), id)
                .stream().findFirst();
    }

    /**
     * Resolves an open change: accepting applies the listed value to the tool's entry (and, for
     * annotations of a tool whose class came from annotations, the class derived from them);
     * rejecting applies nothing. False when the change was not open (any more).
     */
    public boolean resolve(long id, boolean accept, @Nullable ToolClass derived, String actor, String reason) {
        return Boolean.TRUE.equals(transaction.execute(status -> {
            List<ToolChange> open = jdbc.query("SELECT " + CHANGE_COLUMNS + " FROM tool_change WHERE id = ? AND status = 'OPEN' "
                    + "FOR UPDATE", (row, n) -> change(row), id);
            if (open.isEmpty()) {
                return false;
            }
            ToolChange change = open.getFirst();
            jdbc.update("UPDATE tool_change SET status = ?, resolved_at = now(), resolved_by = ?, resolution = ? WHERE id = ?",
                    accept ? "ACCEPTED" : "REJECTED", actor, reason, id);
            if (accept) {
                switch (change.kind()) {
                    case SCHEMA -> jdbc.update("""
                            UPDATE tool_classification SET input_schema = ?::jsonb, updated_at = now(), updated_by = ?,
                                version = version + 1 WHERE server = ? AND tool = ?
                            """, change.listed(), actor, change.server(), change.tool());
                    case ANNOTATIONS -> {
                        Map<String, Object> annotations = change.listed() == null ? Map.of() : json.readValue(change.listed(), MAP);
                        jdbc.update("""
                                UPDATE tool_classification SET annotations = ?::jsonb, read_only_hint = ?, idempotent_hint = ?,
                                    destructive_hint = ?, open_world_hint = ?, updated_at = now(), updated_by = ?,
                                    version = version + 1 WHERE server = ? AND tool = ?
                                """, change.listed(), annotations.get("readOnlyHint"), annotations.get("idempotentHint"),
                                annotations.get("destructiveHint"), annotations.get("openWorldHint"), actor, change.server(),
                                change.tool());
                        if (derived != null) {
                            jdbc.update("""
                                    UPDATE tool_classification SET repeat_class = ?, reason = ?
                                    WHERE server = ? AND tool = ? AND source = 'ANNOTATION'
                                    """, derived.repeatClass().name(), derived.reason(), change.server(), change.tool());
                        }
                    }
                    case REMOVED -> jdbc.update("""
                            UPDATE tool_classification SET updated_at = now(), updated_by = ?, version = version + 1
                            WHERE server = ? AND tool = ?
                            """, actor, change.server(), change.tool());
                }
            }
            notifyChanged(change.server(), change.tool());
            return true;
        }));
    }

    /** The server's tools the registry holds as listed that a listing no longer has. */
    public List<String> listedToolsMissingFrom(String server, List<String> listed) {
        return jdbc.queryForList("""
                SELECT tool FROM tool_classification
                WHERE server = ? AND listed AND input_schema IS NOT NULL AND NOT (tool = ANY (?)) ORDER BY tool
                """, String.class, server, listed.toArray(String[]::new));
    }

    public void recordDiscovery(ToolServer server, @Nullable String error) {
        jdbc.update("""
                INSERT INTO tool_server (name, transport, location, discovered_at, discovery_error)
                VALUES (?, ?, ?, CASE WHEN ?::text IS NULL THEN now() END, ?)
                ON CONFLICT (name) DO UPDATE SET transport = excluded.transport, location = excluded.location,
                    discovered_at = coalesce(excluded.discovered_at, tool_server.discovered_at),
                    discovery_error = excluded.discovery_error, updated_at = now()
                """, server.name(), server.transport().name(), server.location(), error, error);
    }

    public List<RegisteredServer> servers() {
        return jdbc.query("""
                SELECT s.name, s.transport, s.location, s.discovered_at, s.discovery_error,
                       (SELECT count(*) FROM tool_classification t WHERE t.server = s.name) AS tools,
                       (SELECT count(*) FROM tool_change c WHERE c.server = s.name AND c.status = 'OPEN') AS open_changes
                FROM tool_server s ORDER BY s.name
                """, (row, n) -> new RegisteredServer(row.getString("name"), row.getString("transport"),
                row.getString("location"), instant(row.getTimestamp("discovered_at")), row.getString("discovery_error"),
                row.getInt("tools"), row.getInt("open_changes")));
    }

    public List<RegisteredTool> tools(String server) {
        return jdbc.query("SELECT " + TOOL_COLUMNS + " FROM tool_classification WHERE server = ? ORDER BY tool",
                (row, n) -> registeredTool(row), server);
    }

    public Optional<RegisteredTool> tool(String server, String tool) {
        return jdbc.query("SELECT " + TOOL_COLUMNS + " FROM tool_classification WHERE server = ? AND tool = ?",
                (row, n) -> registeredTool(row), server, tool).stream().findFirst();
    }

    public List<ToolChange> openChanges(String server, String tool) {
        return jdbc.query("SELECT " + CHANGE_COLUMNS + " FROM tool_change WHERE server = ? AND tool = ? AND status = 'OPEN' "
                + "ORDER BY id", (row, n) -> change(row), server, tool);
    }

    private void notifyChanged(String server, String tool) {
        jdbc.queryForObject("SELECT pg_notify(?, ?)", Object.class, RegistryNotifications.CHANNEL,
                RegistryNotifications.payload(server, tool));
    }

    private RegisteredTool registeredTool(ResultSet row) throws SQLException {
        String schema = row.getString("input_schema");
        var hints = new ToolHints(bool(row, "read_only_hint"), bool(row, "idempotent_hint"), bool(row, "destructive_hint"),
                bool(row, "open_world_hint"));
        ToolClass toolClass = toolClass(row);
        return new RegisteredTool(toolClass, row.getString("title"), row.getString("description"), hints,
                schema == null ? Map.of() : json.readValue(schema, MAP), row.getBoolean("listed"),
                instant(row.getTimestamp("discovered_at")), openChanges(toolClass.server(), toolClass.tool()));
    }

    private static ToolChange change(ResultSet row) throws SQLException {
        return new ToolChange(row.getLong("id"), row.getString("server"), row.getString("tool"),
                ToolChange.Kind.valueOf(row.getString("kind")), row.getString("recorded"), row.getString("listed"),
                row.getTimestamp("first_seen_at").toInstant(), row.getTimestamp("last_seen_at").toInstant(),
                ToolChange.Status.valueOf(row.getString("status")));
    }

    private static ToolClass toolClass(ResultSet row) throws SQLException {
        RepeatClass repeatClass = RepeatClass.valueOf(row.getString("repeat_class"));
        String checkTool = row.getString("check_tool");
        LandedCheck check = checkTool == null ? null : new LandedCheck(checkTool, strings(row.getArray("check_arguments")),
                row.getString("check_landed_field"), strings(row.getArray("check_result_fields")));
        var retry = new RetryPolicy((Integer) row.getObject("max_calls"), duration(row, "backoff_ms"),
                duration(row, "call_timeout_ms"));
        return new ToolClass(row.getString("server"), row.getString("tool"), repeatClass,
                ClassSource.valueOf(row.getString("source")), check, retry, row.getString("reason"), row.getLong("version"));
    }

    /** Annotations as the registry keeps them (JSON), read back. */
    public ToolHints hintsOf(String annotations) {
        Map<String, Object> read = json.readValue(annotations, MAP);
        return new ToolHints((Boolean) read.get("readOnlyHint"), (Boolean) read.get("idempotentHint"),
                (Boolean) read.get("destructiveHint"), (Boolean) read.get("openWorldHint"));
    }

    /** The annotations as the registry keeps them: the MCP names, only those the server gave. */
    public static Map<String, Object> annotations(ToolHints hints) {
        Map<String, Object> annotations = new LinkedHashMap<>();
        if (hints.readOnly() != null) {
            annotations.put("readOnlyHint", hints.readOnly());
        }
        if (hints.idempotent() != null) {
            annotations.put("idempotentHint", hints.idempotent());
        }
        if (hints.destructive() != null) {
            annotations.put("destructiveHint", hints.destructive());
        }
        if (hints.openWorld() != null) {
            annotations.put("openWorldHint", hints.openWorld());
        }
        return annotations;
    }

    private String json(Object value) {
        return json.writeValueAsString(value);
    }

    private static String @Nullable [] array(@Nullable List<String> values) {
        return values == null || values.isEmpty() ? null : values.toArray(String[]::new);
    }

    private static List<String> strings(@Nullable Array array) throws SQLException {
        return array == null ? List.of() : Arrays.asList((String[]) array.getArray());
    }

    private static @Nullable Long millis(@Nullable Duration duration) {
        return duration == null ? null : duration.toMillis();
    }

    private static @Nullable Duration duration(ResultSet row, String column) throws SQLException {
        Object millis = row.getObject(column);
        return millis == null ? null : Duration.ofMillis(((Number) millis).longValue());
    }

    private static @Nullable Boolean bool(ResultSet row, String column) throws SQLException {
        return (Boolean) row.getObject(column);
    }

    private static @Nullable Instant instant(@Nullable Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }
}
