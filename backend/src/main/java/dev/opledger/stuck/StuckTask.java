package dev.opledger.stuck;

import dev.opledger.claim.CancelRecord;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.OperationStatus;
import dev.opledger.operation.SubjectId;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A task past its tool's threshold, as support staff see it.
 *
 * @param tool the tool whose threshold applies: the operation type (inbound) or the downstream tool (outbound)
 * @param handle what the other side holds: the MCP task id the agent polls (inbound); the call as
 *     {@code server/tool@step} (outbound: effect records keep no downstream task id yet)
 * @param since when the task was created (inbound) or the call started (outbound)
 * @param age how long ago that was, by the database's clock
 * @param status the operation's last status, {@code statusSince} when it entered it
 * @param leaseHolder the node whose worker holds the operation (RUNNING only), else null
 * @param leaseExpired whether that node's lease has run out (it stalled or died; another node takes over)
 * @param cancel the operation's cancel, if one was asked for
 */
public record StuckTask(Direction direction, OperationId operationId, SubjectId subject, String operationType,
        String tool, String handle, Instant since, Duration age, Duration threshold, OperationStatus status,
        Instant statusSince, @Nullable String leaseHolder, boolean leaseExpired, @Nullable CancelRecord cancel) {

    /** Which way the task goes. */
    public enum Direction {
        /** An agent's MCP task on this node. */
        INBOUND,
        /** A tool call the node's effect gateway has in flight. */
        OUTBOUND
    }
}
