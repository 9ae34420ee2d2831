package dev.opledger.mcpserver.internal;

import dev.opledger.claim.ClientInput;
import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.McpSchema.CallToolRequest;
import io.modelcontextprotocol.modern.McpSchema.ElicitFormRequest;
import io.modelcontextprotocol.modern.McpSchema.InputRequiredResult;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.stereotype.Component;

/**
 * Input gathered <em>before</em> a task is created, by the synchronous multi-round-trip flow of
 * the 2026-07-28 revision (ext-tasks "Creating Tasks": a server that needs input before it
 * creates a task SHOULD resolve the MRTR exchanges synchronously first). A {@code tools/call}
 * without answers gets an {@code InputRequiredResult} ({@code resultType: "input_required"}, the
 * form elicitations, a sealed {@code requestState}, no {@code taskId}); the client's retry with
 * {@code inputResponses} and that {@code requestState} is checked ({@link RequestStates}: forged,
 * altered, another subject's or expired → -32602; {@link InputResponses}: malformed → -32602) and
 * gets the answers, and the round's id, from which the caller names what it creates. A retry
 * without an answer to every request is asked again (the spec: re-ask, not an error). Nothing is
 * stored until the last round: the rounds are stateless on the node, so any node serves each.
 */
@Component
class MultiRoundTrip {

    /** Where a call stands: still asking, or every request answered. */
    sealed interface Round {
        record Ask(InputRequiredResult result) implements Round {
        }

        /** @param operationId the same for every replay of the final round (from the round's id) */
        record Answered(Map<String, Object> answers, UUID operationId) implements Round {
        }
    }

    private final RequestStates states;

    MultiRoundTrip(RequestStates states) {
        this.states = states;
    }

    /** The call's round for these form elicitations, by key; -32021 when the client declares no form elicitation. */
    Round round(McpRequestContext context, CallToolRequest request, Map<String, ElicitFormRequest> asks) {
        if (context.clientCapabilities() == null || !context.clientCapabilities().supportsElicitationForm()) {
            throw new McpException(-32021, "tool " + request.name() + " asks for input first (elicitation, form): "
                    + "declare the elicitation capability in the request's clientCapabilities");
        }
        var subject = Caller.of(context.transportContext()).subject();
        Map<String, Object> arguments = request.arguments() == null ? Map.of() : request.arguments();
        if (request.requestState() == null) {
            if (request.inputResponses() != null && !request.inputResponses().isEmpty()) {
                // answers without the state they answer: not this round's; ask (the spec: MUST NOT include one unasked)
                InputResponses.check(request.inputResponses(), Map.of());
            }
            return ask(subject, request.name(), arguments, asks);
        }
        RequestStates.Opened opened = states.open(request.requestState(), subject, request.name(), arguments);
        Map<String, ClientInput> open = new LinkedHashMap<>();
        for (String key : opened.keys()) {
            ElicitFormRequest form = asks.get(key);
            if (form == null) {
                throw McpException.invalidParams("requestState is not valid for this request");
            }
            open.put(key, new ClientInput(key, InputResponses.write(wire(form)), Instant.EPOCH, null, null));
        }
        Map<String, Object> answers = InputResponses.check(request.inputResponses(), open);
        if (!answers.keySet().containsAll(asks.keySet())) {
            return ask(subject, request.name(), arguments, asks);
        }
        return new Round.Answered(answers, opened.operationId());
    }

    private Round ask(dev.opledger.operation.SubjectId subject, String tool, Map<String, Object> arguments,
            Map<String, ElicitFormRequest> asks) {
        var builder = InputRequiredResult.builder();
        asks.forEach(builder::elicit);
        return new Round.Ask(builder.requestState(states.seal(subject, tool, arguments, List.copyOf(asks.keySet())))
                .build());
    }

    /** An elicitation as the wire (and {@code inputRequests}) carries it: {@code {"method", "params"}}. */
    static Map<String, Object> wire(ElicitFormRequest form) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("mode", "form");
        params.put("message", form.message());
        params.put("requestedSchema", form.requestedSchema());
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("method", "elicitation/create");
        request.put("params", params);
        return request;
    }
}
