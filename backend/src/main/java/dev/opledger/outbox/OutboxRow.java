package dev.opledger.outbox;

/**
 * How a statement that changes an operation's state writes its event: it increments
 * {@code operation.event_sequence} on the row it changes (or, for an effect, on the operation's
 * row) and ends with {@link #INSERT} selecting from that change, so the event commits with the
 * change or not at all, numbered without gaps in commit order. Selecting from the change also
 * means the statement has a transaction id before the row takes its id, which the relay's
 * watermark relies on ({@code OutboxRows.advanceWatermark}): a statement must not insert an event
 * before it has written something else. The SELECT's last column is the
 * trace context, {@code trace.context}, from {@link #TRACE} joined last in its FROM: the
 * statement's last parameter, {@link OutboxTrace#current()}.
 */
public final class OutboxRow {

    /** Followed by a SELECT of these columns; {@code payload} is a jsonb object of the type's own fields. */
    public static final String INSERT = "INSERT INTO outbox_event (operation_ref, operation_id, subject_id, sequence, "
            + "type, status, tool, step_key, payload, trace_context)";

    /**
     * Joined last in the FROM of the SELECT after {@link #INSERT} (no parameter after it in the
     * statement): the trace context as {@code trace.context}.
     */
    public static final String TRACE = "CROSS JOIN (SELECT ?::text) AS trace(context)";

    private OutboxRow() {
    }
}
