package dev.opledger.tools.task;

import dev.opledger.tools.effect.ArgumentsDigest;
import dev.opledger.tools.toolkit.TaskTool;
import dev.opledger.tools.toolkit.ToolArguments;
import dev.opledger.tools.toolkit.ToolOutcome;
import java.security.SecureRandom;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** {@code reference_tools.task}: every write is committed when its method returns. */
public class TaskStore {

    /** 256 bits, so a task id cannot be guessed: it is all a caller needs to read or cancel the task. */
    private static final int ID_BYTES = 32;
    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {
    };
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final JdbcClient jdbc;
    private final SecureRandom random = new SecureRandom();

    TaskStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * A new working task for the call, due after the tool's duration; with an idempotency key the
     * task that key made already (a concurrent call with the same key waits for the first one's
     * row and finds it), or a refusal when that task was made with other arguments.
     *
     * @param failAs a JSON-RPC error message the task fails with when due (an injected fault), or null
     */
    @Transactional
    TaskStart create(TaskTool tool, ToolArguments arguments, @Nullable String idempotencyKey, @Nullable String failAs) {
        String digest = ArgumentsDigest.of(arguments.asMap());
        List<StoredTask> created = jdbc.sql("""
                INSERT INTO reference_tools.task (task_id, tool, idempotency_key, operation_id, step_key, arguments,
                                                  arguments_digest, due_at, fail_as)
                VALUES (?, ?, ?, ?, ?, ?::jsonb, ?, clock_timestamp() + ?::interval, ?)
                ON CONFLICT (tool, idempotency_key) DO NOTHING
                RETURNING *""")
                .params(newTaskId(), tool.name(), idempotencyKey, arguments.operationId(), arguments.stepKey(),
                        JSON.writeValueAsString(arguments.asMap()), digest, interval(tool.duration()), failAs)
                .query(TaskStore::row).list();
        if (!created.isEmpty()) {
            return new TaskStart.Started(created.getFirst(), false);
        }
        var existing = jdbc.sql("SELECT *, arguments_digest AS digest FROM reference_tools.task "
                        + "WHERE tool = ? AND idempotency_key = ?")
                .params(tool.name(), idempotencyKey)
                .query((row, n) -> Map.entry(row(row, n), row.getString("digest"))).single();
        if (!existing.getValue().equals(digest)) {
            return new TaskStart.Refused(new ToolOutcome.Failure("IDEMPOTENCY_KEY_REUSED", "idempotency key '"
                    + idempotencyKey + "' started task " + existing.getKey().taskId() + " with other arguments"));
        }
        return new TaskStart.Started(existing.getKey(), true);
    }

    /** The task, counting the read as a poll. */
    public Optional<StoredTask> poll(String taskId) {
        return jdbc.sql("""
                UPDATE reference_tools.task SET polls = polls + 1, last_polled_at = clock_timestamp()
                WHERE task_id = ? RETURNING *""").param(taskId).query(TaskStore::row).optional();
    }

    public Optional<StoredTask> find(String taskId) {
        return jdbc.sql("SELECT * FROM reference_tools.task WHERE task_id = ?").param(taskId)
                .query(TaskStore::row).optional();
    }

    /** Tasks of an operation's step, oldest first: how many calls of a task tool reached this server. */
    public List<StoredTask> ofStep(String operationId, String stepKey) {
        return jdbc.sql("SELECT * FROM reference_tools.task WHERE operation_id = ? AND step_key = ? ORDER BY created_at")
                .params(operationId, stepKey).query(TaskStore::row).list();
    }

    /** Cancelled, if it is still working; false when there is no such task (a terminal one stays as it is). */
    boolean cancel(String taskId) {
        jdbc.sql("""
                UPDATE reference_tools.task SET status = 'cancelled', summary = 'cancelled by the client',
                    updated_at = clock_timestamp()
                WHERE task_id = ? AND status = 'working'""").param(taskId).update();
        return find(taskId).isPresent();
    }

    /**
     * Ends a working task: its effect ({@link TaskTool#finish}) and its completion in one
     * transaction, or its injected failure. Does nothing to a task no longer working (cancelled).
     */
    @Transactional
    void finish(String taskId, TaskTool tool) {
        var due = jdbc.sql("SELECT arguments::text, fail_as FROM reference_tools.task "
                        + "WHERE task_id = ? AND status = 'working' FOR UPDATE")
                .param(taskId)
                .query((row, n) -> Map.entry(row.getString(1), Optional.ofNullable(row.getString(2))))
                .optional();
        if (due.isEmpty()) {
            return;
        }
        if (due.get().getValue().isPresent()) {
            jdbc.sql("""
                    UPDATE reference_tools.task SET status = 'failed', error_code = -32603, summary = ?,
                        updated_at = clock_timestamp() WHERE task_id = ?""")
                    .params(due.get().getValue().get(), taskId).update();
            return;
        }
        ToolOutcome outcome = tool.finish(ToolArguments.parse(JSON.readValue(due.get().getKey(), OBJECT), tool.descriptor()));
        Map<String, Object> structured = switch (outcome) {
            case ToolOutcome.Success success -> success.structured();
            case ToolOutcome.Failure failure -> failure.structured();
        };
        jdbc.sql("""
                UPDATE reference_tools.task SET status = 'completed', result = ?::jsonb, is_error = ?, summary = ?,
                    updated_at = clock_timestamp() WHERE task_id = ?""")
                .params(JSON.writeValueAsString(structured), outcome instanceof ToolOutcome.Failure, outcome.summary(),
                        taskId)
                .update();
    }

    /** Working tasks (id, tool, when due), for the scheduler after a restart of the server. */
    List<DueTask> working() {
        return jdbc.sql("SELECT task_id, tool, due_at FROM reference_tools.task WHERE status = 'working'")
                .query((row, n) -> new DueTask(row.getString(1), row.getString(2), row.getTimestamp(3).toInstant()))
                .list();
    }

    record DueTask(String taskId, String tool, Instant dueAt) {
    }

    private String newTaskId() {
        byte[] bytes = new byte[ID_BYTES];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String interval(Duration duration) {
        return duration.toMillis() + " milliseconds";
    }

    private static StoredTask row(ResultSet row, int n) throws SQLException {
        String result = row.getString("result");
        Integer errorCode = row.getObject("error_code", Integer.class);
        return new StoredTask(row.getString("task_id"), row.getString("tool"), row.getString("status"),
                result == null ? null : JSON.readValue(result, OBJECT), row.getBoolean("is_error"),
                row.getString("summary"), errorCode, row.getTimestamp("created_at").toInstant(),
                row.getTimestamp("updated_at").toInstant(), row.getInt("polls"));
    }
}
