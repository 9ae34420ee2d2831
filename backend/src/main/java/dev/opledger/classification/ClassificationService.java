package dev.opledger.classification;

import dev.opledger.classification.internal.ClassificationRepository;
import dev.opledger.mcp.ToolHints;
import dev.opledger.mcp.ToolRef;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.springframework.stereotype.Service;

/**
 * The repeat class of each tool. A tool seen for the first time gets its class from configuration
 * if set there, else derived from its MCP annotations (read-only or idempotent → IDEMPOTENT,
 * anything else → NEVER_REPEAT: KEYED and CHECK_THEN_WRITE cannot be read from annotations), else
 * NEVER_REPEAT. Configuration then overrides annotations; probes and admins override both.
 */
@Service
public class ClassificationService {

    private final ClassificationRepository repository;
    private final ToolClassesProperties configured;

    ClassificationService(ClassificationRepository repository, ToolClassesProperties configured) {
        this.repository = repository;
        this.configured = configured;
    }

    /** The tool's class, recording the configured or derived one the first time (or when configuration changed). */
    public ToolClass classOf(ToolRef tool, Supplier<Optional<ToolHints>> hints) {
        Optional<ToolClass> recorded = repository.find(tool.server(), tool.tool());
        var fromConfiguration = Optional.ofNullable(configured.classes().get(tool.server()))
                .map(tools -> tools.get(tool.tool()));
        if (fromConfiguration.isPresent()) {
            var setting = fromConfiguration.get();
            var wanted = new ToolClass(tool.server(), tool.tool(), setting.repeatClass(), ClassSource.CONFIGURATION,
                    setting.checkTool(), setting.reason() == null ? "set in opledger.tools.classes" : setting.reason());
            if (recorded.isEmpty() || (recorded.get().source() == ClassSource.ANNOTATIONS)
                    || (recorded.get().source() == ClassSource.CONFIGURATION && !recorded.get().equals(wanted))) {
                return repository.record(wanted, null, null);
            }
            return recorded.get();
        }
        if (recorded.isPresent()) {
            return recorded.get();
        }
        Optional<ToolHints> annotations = hints.get();
        if (annotations.isEmpty()) {
            // not recorded: the server may only be unreachable now, and a recorded guess would stick
            return new ToolClass(tool.server(), tool.tool(), RepeatClass.NEVER_REPEAT, ClassSource.ANNOTATIONS, null,
                    "no annotations seen: assumed never-repeat");
        }
        return repository.record(new ToolClass(tool.server(), tool.tool(), derive(annotations.get()),
                ClassSource.ANNOTATIONS, null, "from MCP annotations " + describe(annotations.get())), annotations.get(), null);
    }

    public List<ToolClass> all() {
        return repository.all();
    }

    /** What annotations alone allow: only a read-only or idempotent tool may be repeated blindly. */
    static RepeatClass derive(ToolHints hints) {
        if (Boolean.TRUE.equals(hints.readOnly()) || Boolean.TRUE.equals(hints.idempotent())) {
            return RepeatClass.IDEMPOTENT;
        }
        return RepeatClass.NEVER_REPEAT;
    }

    private static String describe(ToolHints hints) {
        return "(readOnly=" + hints.readOnly() + ", idempotent=" + hints.idempotent() + ", destructive="
                + hints.destructive() + ")";
    }
}
