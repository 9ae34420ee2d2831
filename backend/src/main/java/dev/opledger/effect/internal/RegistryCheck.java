package dev.opledger.effect.internal;

import dev.opledger.classification.LandedCheck;
import dev.opledger.effect.Effect;
import dev.opledger.effect.EffectCheck;
import dev.opledger.mcp.ToolClient;
import dev.opledger.mcp.ToolRef;
import dev.opledger.mcp.ToolReply;
import dev.opledger.mcp.ToolTransportException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The check of a check-then-write effect as the registry declares it ({@link LandedCheck}): the
 * read tool of the same server, called with the write's arguments it names and the step's
 * {@code operationId} and {@code stepKey}, as the write has them. A refusal of the check is no
 * answer: whether the effect landed stays unknown.
 */
public final class RegistryCheck {

    private RegistryCheck() {
    }

    public static EffectCheck of(LandedCheck declared, Effect effect, ToolClient tools) {
        return () -> {
            Map<String, Object> arguments = new LinkedHashMap<>();
            for (String name : declared.arguments()) {
                Object value = effect.arguments().get(name);
                if (value != null) {
                    arguments.put(name, value);
                }
            }
            arguments.put("operationId", effect.operationId().toString());
            arguments.put("stepKey", effect.stepKey());
            var checkTool = new ToolRef(effect.tool().server(), declared.tool());
            ToolReply reply = tools.call(checkTool, arguments);
            if (reply.error()) {
                throw new ToolTransportException(declared.tool() + " refused the check: " + reply.text());
            }
            if (!Boolean.TRUE.equals(reply.content().get(declared.landedField()))) {
                return Optional.empty();
            }
            // the write's arguments the check was asked about, and only the fields the registry names
            // (a read may answer more than this step's effect, e.g. other operations' history)
            Map<String, Object> landed = new LinkedHashMap<>();
            declared.arguments().forEach(name -> {
                if (effect.arguments().get(name) != null) {
                    landed.put(name, effect.arguments().get(name));
                }
            });
            if (declared.resultFields().isEmpty()) {
                landed.putAll(reply.content());
            } else {
                declared.resultFields().forEach(field -> landed.put(field, reply.content().get(field)));
            }
            return Optional.of(landed);
        };
    }
}
