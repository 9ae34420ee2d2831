package dev.opledger.tools.fault;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/**
 * Decides the faults of each call from three sources, all in the same notation:
 * configuration and {@link #inject} (standing, optionally for the next N calls) and the request
 * header {@value #HEADER} (that request only): {@code <tool>=<fault>[, <tool>=<fault>...]}, where
 * the tool {@code *} means every tool.
 */
@EnableConfigurationProperties({FaultProperties.class, EnvironmentFaultProperties.class})
public class Faults {

    /** The request header that injects faults into that request's call. */
    public static final String HEADER = "X-Reference-Tools-Fault";

    private static final String EVERY_TOOL = "*";

    private final List<FaultRule> rules = new CopyOnWriteArrayList<>();

    Faults(FaultProperties configured, EnvironmentFaultProperties environment) {
        configured.faults().forEach(this::inject);
        environment.faults().forEach(this::inject);
    }

    /**
     * Adds standing faults for a tool ({@code *}: every tool), e.g. {@code drop-response*1} for
     * its next call only, or {@code delay:300} for every call until {@link #clear()}.
     *
     * @throws InvalidFaultException when the specification cannot be read
     */
    public void inject(String tool, String specification) {
        rules.addAll(FaultRule.parse(normalized(tool), specification));
    }

    /** Removes every standing fault (configured ones too). */
    public void clear() {
        rules.clear();
    }

    /**
     * The faults for one call of {@code tool}, counting it against counted rules.
     *
     * @param header the value of {@value #HEADER} on the request, if any
     * @throws InvalidFaultException when the header cannot be read
     */
    public FaultPlan planFor(String tool, @Nullable String header) {
        String name = normalized(tool);
        List<Fault> faults = new ArrayList<>(fromHeader(name, header));
        for (FaultRule rule : rules) {
            if (applies(rule.tool(), name) && rule.take()) {
                faults.add(rule.fault());
            }
        }
        rules.removeIf(FaultRule::spent);
        return faults.isEmpty() ? FaultPlan.NONE : FaultPlan.of(faults);
    }

    private static List<Fault> fromHeader(String tool, @Nullable String header) {
        if (header == null || header.isBlank()) {
            return List.of();
        }
        List<Fault> faults = new ArrayList<>();
        for (String entry : header.split(",")) {
            String[] toolAndFault = entry.split("=", 2);
            if (toolAndFault.length != 2 || toolAndFault[0].isBlank()) {
                throw new InvalidFaultException(HEADER + ": '" + entry.strip() + "' is not <tool>=<fault>");
            }
            Fault fault = Fault.parse(toolAndFault[1]);
            if (applies(normalized(toolAndFault[0]), tool)) {
                faults.add(fault);
            }
        }
        return faults;
    }

    private static boolean applies(String ruleTool, String tool) {
        return ruleTool.equals(EVERY_TOOL) || ruleTool.equals(tool);
    }

    /** Tool names compared without case or punctuation, as relaxed property binding leaves map keys. */
    private static String normalized(String tool) {
        String trimmed = tool.strip();
        return trimmed.equals(EVERY_TOOL) ? EVERY_TOOL
                : trimmed.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
    }
}
