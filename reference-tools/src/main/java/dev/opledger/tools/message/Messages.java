package dev.opledger.tools.message;

import dev.opledger.tools.effect.EffectLog;
import dev.opledger.tools.toolkit.ToolArguments;
import java.time.Instant;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.annotation.Transactional;

/** Sent messages, in the server's own schema. */
class Messages {

    private final JdbcClient jdbc;
    private final EffectLog effects;

    Messages(JdbcClient jdbc, EffectLog effects) {
        this.jdbc = jdbc;
        this.effects = effects;
    }

    /** Sends one more message, whatever was sent before. */
    @Transactional
    SentMessage send(String recipient, String body, ToolArguments arguments) {
        UUID id = UUID.randomUUID();
        Instant sentAt = jdbc.sql("""
                INSERT INTO reference_tools.message (message_id, recipient, body, operation_id, step_key)
                VALUES (?, ?, ?, ?, ?)
                RETURNING sent_at""")
                .params(id, recipient, body, arguments.operationId(), arguments.stepKey())
                // getObject(1, Instant.class), as query(Instant.class) asks, makes PgJDBC throw first
                .query((row, n) -> row.getTimestamp(1).toInstant())
                .single();
        effects.record(SendMessageTool.NAME, arguments, null, id.toString());
        return new SentMessage(id, recipient, sentAt);
    }
}
