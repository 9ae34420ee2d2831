package dev.opledger.outbox;

/**
 * How a statement that changes an operation's state writes its event: it increments
 * {@code operation.event_sequence} on the row it changes (or, for an effect, on the operation's
 * row) and ends with {@link #INSERT} selecting from that change, so the event commits with the
 * change or not at all, numbered without gaps in commit order.
 */
public final class OutboxRow {

    /** Followed by a SELECT of these columns; {@code payload} is a jsonb object of the type's own fields. */
    public static final String INSERT = "INSERT INTO outbox_event (operation_ref, operation_id, subject_id, sequence, "
            + "type, status, tool, step_key, payload)";

    private OutboxRow() {
    }
}
