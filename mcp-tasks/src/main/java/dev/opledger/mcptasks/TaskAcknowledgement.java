package dev.opledger.mcptasks;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.modelcontextprotocol.modern.McpSchema;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** The empty acknowledgement of {@code tasks/update} and {@code tasks/cancel}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TaskAcknowledgement(@JsonProperty("_meta") @Nullable Map<String, Object> meta)
        implements McpSchema.Result {

    public static final TaskAcknowledgement EMPTY = new TaskAcknowledgement(null);

    @Override
    @JsonProperty("resultType")
    public String resultType() {
        return "complete";
    }
}
