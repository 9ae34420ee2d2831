package dev.opledger.classification;

import dev.opledger.audit.AuditService;
import dev.opledger.classification.internal.ProbeRepository;
import dev.opledger.mcp.ToolRef;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The tool registry as the console's Tools view uses it: SUPPORT (and ADMIN) read every server
 * and tool; only ADMIN edits a class or retry policy, or accepts or rejects a flagged change, each
 * with a required reason and audited with what was before and after, in the change's transaction.
 * An edit names the version the editor read: if someone changed the tool since, nothing is
 * changed and the outcome says so ({@link ToolEditOutcome.ChangedMeanwhile}).
 *
 * <p>{@link ClassificationService} stays unsecured: the effect gateway asks it for classes on
 * worker threads with nobody signed in.
 */
@Service
@PreAuthorize("hasRole('SUPPORT')")
public class ToolRegistryService {

    /** The longest reason the audit trail keeps with a change. */
    public static final int MAX_REASON_LENGTH = 500;
    /** The longest probe request read: its calls and arguments are small, a file's content at most a few pages. */
    public static final int MAX_PROBE_REQUEST_LENGTH = 64 * 1024;

    static final String EDIT_ACTION = "EDIT_TOOL_CLASS";
    static final String ACCEPT_ACTION = "ACCEPT_TOOL_CHANGE";
    static final String REJECT_ACTION = "REJECT_TOOL_CHANGE";
    static final String PROBE_ACTION = "RUN_TOOL_PROBE";
    static final String ACCEPT_PROBE_ACTION = "ACCEPT_TOOL_PROBE";
    static final String REJECT_PROBE_ACTION = "REJECT_TOOL_PROBE";

    private final ClassificationService classification;
    private final AuditService audit;
    private final ToolProber prober;
    private final ProbeRepository probes;

    ToolRegistryService(ClassificationService classification, AuditService audit, ToolProber prober,
            ProbeRepository probes) {
        this.classification = classification;
        this.audit = audit;
        this.prober = prober;
        this.probes = probes;
    }

    public List<RegisteredServer> servers() {
        return classification.servers();
    }

    /** Every tool of every server the registry holds, by server and name. */
    public List<RegisteredTool> tools() {
        return classification.all().stream().map(recorded -> classification.tool(
                new ToolRef(recorded.server(), recorded.tool()))).flatMap(Optional::stream).toList();
    }

    public Optional<RegisteredTool> tool(String server, String tool) {
        return classification.tool(new ToolRef(server, tool));
    }

    /**
     * Sets the tool's class, check and retry policy (source ADMIN, the reason kept with it), if
     * its entry is still at {@code readVersion}.
     *
     * @throws IllegalArgumentException for a blank or too long reason, or a check that does not
     *     go with the class (a check-then-write tool, and only one, names its check)
     */
    @PreAuthorize("hasRole('ADMIN')")
    @Transactional
    public ToolEditOutcome edit(String server, String toolName, long readVersion, RepeatClass repeatClass,
            @Nullable LandedCheck check, RetryPolicy retry, String reason) {
        String why = required(reason);
        var tool = new ToolRef(server, toolName);
        var wanted = new ToolClass(tool.server(), tool.tool(), repeatClass, ClassSource.ADMIN, check, retry, why, readVersion);
        Optional<RegisteredTool> before = classification.tool(tool);
        if (before.isEmpty()) {
            return new ToolEditOutcome.NotFound(tool.server(), tool.tool());
        }
        Authentication who = SecurityContextHolder.getContext().getAuthentication();
        if (!classification.update(wanted, readVersion, who.getName())) {
            return classification.tool(tool).<ToolEditOutcome>map(ToolEditOutcome.ChangedMeanwhile::new)
                    .orElseGet(() -> new ToolEditOutcome.NotFound(tool.server(), tool.tool()));
        }
        RegisteredTool after = classification.tool(tool).orElseThrow();
        audit.record(who.getName(), EDIT_ACTION, target(tool), "before: " + describe(before.get().toolClass())
                + "; after: " + describe(after.toolClass()) + "; reason: " + why, AuditService.clientAddress(who));
        return new ToolEditOutcome.Edited(after);
    }

    /**
     * Accepts or rejects a flagged change (see {@link ClassificationService#resolve}), audited
     * with the change's recorded and listed values and the class before and after.
     */
    @PreAuthorize("hasRole('ADMIN')")
    @Transactional
    public ChangeResolution resolve(long changeId, boolean accept, String reason) {
        String why = required(reason);
        Authentication who = SecurityContextHolder.getContext().getAuthentication();
        Optional<ToolChange> change = classification.change(changeId);
        Optional<RegisteredTool> before = change.flatMap(c -> classification.tool(new ToolRef(c.server(), c.tool())));
        ChangeResolution resolution = classification.resolve(changeId, accept, who.getName(), why);
        if (resolution instanceof ChangeResolution.Resolved resolved) {
            ToolChange resolvedChange = change.orElseThrow();
            audit.record(who.getName(), accept ? ACCEPT_ACTION : REJECT_ACTION,
                    target(new ToolRef(resolvedChange.server(), resolvedChange.tool())),
                    resolvedChange.kind() + " change " + changeId + ": recorded " + resolvedChange.recorded() + ", listed "
                            + resolvedChange.listed() + "; before: " + before.map(t -> describe(t.toolClass())).orElse("-")
                            + "; after: " + describe(resolved.tool().toolClass()) + "; reason: " + why,
                    AuditService.clientAddress(who));
        }
        return resolution;
    }

    /** Whether the server declares a sandbox, so that an admin can probe its write tools. */
    public boolean sandboxed(String server) {
        return prober.sandboxed(server);
    }

    /** The latest probe of every tool that has been probed. */
    public List<ToolProbe> lastProbes() {
        return probes.latest();
    }

    /** The tool's probes, the latest first. */
    public List<ToolProbe> probes(String server, String tool) {
        return probes.of(server, tool);
    }

    /**
     * Runs the double-run probe of a write tool in its server's sandbox ({@link ToolProber}), now,
     * and records it; its suggestion waits for {@link #decideProbe}. {@code request} is JSON:
     * {@code {"prepare": [{"tool": …, "arguments": {…}}], "arguments": {…}}}. A request that cannot
     * be read, a tool without a sandbox, or a path outside it is {@link ProbeOutcome.Refused} with
     * nothing called. Audited whatever the outcome.
     */
    @PreAuthorize("hasRole('ADMIN')")
    public ProbeOutcome probe(String server, String tool, String request) {
        Authentication who = SecurityContextHolder.getContext().getAuthentication();
        var ref = new ToolRef(server, tool);
        ProbeOutcome outcome = request.length() > MAX_PROBE_REQUEST_LENGTH
                ? new ProbeOutcome.Refused(server, tool, "the probe's request is longer than "
                        + MAX_PROBE_REQUEST_LENGTH + " characters")
                : prober.parse(request).map(parsed -> prober.probe(ref, parsed, who.getName()))
                .orElseGet(() -> new ProbeOutcome.Refused(server, tool, "the probe's request is not readable: write "
                        + "{\"prepare\": [{\"tool\": …, \"arguments\": {…}}], \"arguments\": {…}}"));
        String detail = switch (outcome) {
            case ProbeOutcome.Probed probed -> "probe " + probed.probe().id() + ": second run "
                    + probed.probe().secondRun() + ", suggests " + probed.probe().suggested() + " ("
                    + probed.probe().explanation() + ") in " + probed.probe().wallMillis() + " ms";
            case ProbeOutcome.Refused refused -> "refused: " + refused.reason();
            case ProbeOutcome.AlreadyRunning running -> "refused: probe " + running.probeId() + " of the tool is running";
        };
        audit.record(who.getName(), PROBE_ACTION, target(ref), detail + "; request: " + shortened(request),
                AuditService.clientAddress(who));
        return outcome;
    }

    /**
     * Accepts a probe's suggestion — the tool's class becomes it, source PROBE, the retry policy
     * kept — if the tool is still at {@code readVersion} (optimistic locking, as for an edit), or
     * rejects it (the class stays). Audited with the class before and after, in one transaction.
     */
    @PreAuthorize("hasRole('ADMIN')")
    @Transactional
    public ProbeDecision decideProbe(long probeId, boolean accept, long readVersion, String reason) {
        String why = required(reason);
        Authentication who = SecurityContextHolder.getContext().getAuthentication();
        Optional<ToolProbe> locked = probes.lockForDecision(probeId);
        if (locked.isEmpty()) {
            return new ProbeDecision.NotFound(probeId);
        }
        ToolProbe probe = locked.get();
        if (probe.decision() != ToolProbe.Decision.OPEN || probe.suggested() == null) {
            return new ProbeDecision.NotOpen(probeId, probe.decision());
        }
        var ref = new ToolRef(probe.server(), probe.tool());
        RegisteredTool before = classification.tool(ref).orElseThrow();
        if (accept) {
            var suggested = new ToolClass(ref.server(), ref.tool(), probe.suggested(), ClassSource.PROBE, null,
                    before.toolClass().retry(), "probe " + probeId + ": " + probe.explanation() + "; " + why, readVersion);
            if (!classification.update(suggested, readVersion, who.getName())) {
                return new ProbeDecision.ChangedMeanwhile(classification.tool(ref).orElseThrow());
            }
        }
        probes.decide(probeId, accept, who.getName(), why);
        RegisteredTool after = classification.tool(ref).orElseThrow();
        audit.record(who.getName(), accept ? ACCEPT_PROBE_ACTION : REJECT_PROBE_ACTION, target(ref), "probe " + probeId
                + " suggests " + probe.suggested() + " (second run " + probe.secondRun() + "); before: "
                + describe(before.toolClass()) + "; after: " + describe(after.toolClass()) + "; reason: " + why,
                AuditService.clientAddress(who));
        return new ProbeDecision.Decided(probes.probe(probeId).orElseThrow(), after);
    }

    private static String shortened(String text) {
        return text.length() <= MAX_REASON_LENGTH ? text : text.substring(0, MAX_REASON_LENGTH) + "…";
    }

    /** How the audit trail and the console write a class: {@code IDEMPOTENT (ADMIN), check …, retry …}. */
    public static String describe(ToolClass toolClass) {
        StringBuilder text = new StringBuilder(toolClass.repeatClass().name()).append(" (").append(toolClass.source())
                .append(")");
        if (toolClass.check() != null) {
            text.append(", check ").append(toolClass.check().tool());
            if (toolClass.check().landedField() != null) {
                text.append(" landed by ").append(toolClass.check().landedField());
            }
        }
        return text.append(", retry ").append(describe(toolClass.retry())).toString();
    }

    /** {@code max 3 calls, backoff 200 ms, timeout 5000 ms}; a part not set is the node's default. */
    public static String describe(RetryPolicy retry) {
        if (retry.equals(RetryPolicy.DEFAULTS)) {
            return "node defaults";
        }
        return "max " + (retry.maxCalls() == null ? "default" : retry.maxCalls()) + " calls, backoff "
                + millis(retry.backoff()) + ", timeout " + millis(retry.callTimeout());
    }

    private static String millis(@Nullable Duration duration) {
        return duration == null ? "default" : duration.toMillis() + " ms";
    }

    private static String target(ToolRef tool) {
        return tool.server() + "/" + tool.tool();
    }

    private static String required(@Nullable String reason) {
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("give a reason: it is kept with the change and in the audit trail");
        }
        String stripped = reason.strip();
        if (stripped.length() > MAX_REASON_LENGTH) {
            throw new IllegalArgumentException("a reason is at most " + MAX_REASON_LENGTH + " characters");
        }
        return stripped;
    }
}
