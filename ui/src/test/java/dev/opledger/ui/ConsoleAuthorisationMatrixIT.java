package dev.opledger.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.vaadin.flow.router.Route;
import dev.opledger.attest.AttestService;
import dev.opledger.claim.ApprovalService;
import dev.opledger.claim.CancelService;
import dev.opledger.claim.LeasedOperation;
import dev.opledger.claim.LifecycleService;
import dev.opledger.operation.OperationStatus;
import dev.opledger.claim.ClaimService;
import dev.opledger.claim.LedgerFilter;
import dev.opledger.classification.RetryPolicy;
import dev.opledger.node.security.ConsoleRole;
import dev.opledger.operation.OperationId;
import dev.opledger.operation.SubjectId;
import dev.opledger.replay.ReplayStartOutcome;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.Operations;
import jakarta.annotation.security.RolesAllowed;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.access.prepost.PreAuthorize;
import org.springframework.security.authentication.AuthenticationCredentialsNotFoundException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * The console's authorisation matrix (issue 15), server side: anonymous, SUPPORT and ADMIN against
 * every role-checked façade method and every console route. The tables below are the matrix; a
 * façade method or a route without a row fails the test, so a new action cannot slip in unchecked.
 * The same matrix is in docs/console-authorisation.md.
 */
@NodeIntegrationTest
class ConsoleAuthorisationMatrixIT {

    /** Who is refused how, when below the least role. */
    enum Refusal {
        /** {@code @PreAuthorize}: AccessDeniedException (AuthenticationCredentialsNotFound when anonymous). */
        ANNOTATION,
        /** {@code @PreAuthorize("hasRole('SUPPORT')")} plus an in-method ADMIN check returning a typed NotAllowed. */
        IN_METHOD_NOT_ALLOWED
    }

    record Rule(ConsoleRole least, Refusal refusal) {
    }

    private static Rule support() {
        return new Rule(ConsoleRole.SUPPORT, Refusal.ANNOTATION);
    }

    private static Rule admin() {
        return new Rule(ConsoleRole.ADMIN, Refusal.ANNOTATION);
    }

    /** Façade method (Class#method(ParameterTypes)) → the least role that may call it. */
    static final Map<String, Rule> FACADE_MATRIX = new TreeMap<>(Map.ofEntries(
            Map.entry("AttestService#devices(SubjectId,int,int)", support()),
            Map.entry("AttestService#revoke(String,String)", admin()),
            Map.entry("ApprovalService#approve(SubjectId,OperationId,String)", support()),
            Map.entry("ApprovalService#reject(SubjectId,OperationId,String)", support()),
            Map.entry("CancelService#cancelAsStaff(OperationId,String)", support()),
            Map.entry("LedgerService#operations(LedgerFilter,int,int)", support()),
            Map.entry("LedgerService#operation(SubjectId,OperationId)", support()),
            Map.entry("LedgerService#operation(OperationId)", support()),
            Map.entry("LedgerService#conflicts(int,int)", support()),
            Map.entry("ToolRegistryService#servers()", support()),
            Map.entry("ToolRegistryService#tools()", support()),
            Map.entry("ToolRegistryService#tool(String,String)", support()),
            Map.entry("ToolRegistryService#edit(String,String,long,RepeatClass,LandedCheck,RetryPolicy,String)",
                    admin()),
            Map.entry("ToolRegistryService#resolve(long,boolean,String)", admin()),
            Map.entry("ToolRegistryService#sandboxed(String)", support()),
            Map.entry("ToolRegistryService#lastProbes()", support()),
            Map.entry("ToolRegistryService#probes(String,String)", support()),
            Map.entry("ToolRegistryService#probe(String,String,String)", admin()),
            Map.entry("ToolRegistryService#decideProbe(long,boolean,long,String)", admin()),
            Map.entry("EffectLedger#recordsOf(OperationId)", support()),
            Map.entry("TimelineService#timeline(SubjectId,OperationId)", support()),
            Map.entry("TimelineService#timeline(OperationId)", support()),
            Map.entry("OutboxService#events(OperationId)", support()),
            Map.entry("OutboxService#overview()", support()),
            Map.entry("ReplayService#dryRun(SubjectId,OperationId,UUID)", support()),
            Map.entry("ReplayService#start(SubjectId,OperationId,UUID,String,Collection)",
                    new Rule(ConsoleRole.ADMIN, Refusal.IN_METHOD_NOT_ALLOWED)),
            Map.entry("ReviewService#unknownEffect(SubjectId,OperationId)", support()),
            Map.entry("ReviewService#resolve(SubjectId,OperationId,String,Instant,EffectResolution,String)",
                    support()),
            Map.entry("StuckTaskService#inbound(int,int)", support()),
            Map.entry("StuckTaskService#outbound(int,int)", support()),
            Map.entry("StuckTaskService#recentCancels(int)", support()),
            Map.entry("StuckTaskService#thresholds()", support())));

    /** Console route (its @Route class) → the path to request and the roles its @RolesAllowed names. */
    static final Map<String, RouteRow> ROUTE_MATRIX = new TreeMap<>(Map.of(
            "LedgerView", new RouteRow("/ledger", Set.of("SUPPORT", "ADMIN")),
            "OperationView", new RouteRow("/operations/8e7b6d9e-2f4c-4a7e-9b1d-3c5e7f9a1b2c?subject=alice",
                    Set.of("SUPPORT", "ADMIN")),
            "OutboxView", new RouteRow("/outbox", Set.of("SUPPORT", "ADMIN")),
            "ConflictsView", new RouteRow("/conflicts", Set.of("SUPPORT", "ADMIN")),
            "ToolsView", new RouteRow("/tools", Set.of("SUPPORT", "ADMIN")),
            "DevicesView", new RouteRow("/devices", Set.of("SUPPORT", "ADMIN")),
            "StuckTasksView", new RouteRow("/stuck-tasks", Set.of("SUPPORT", "ADMIN")),
            "LoginView", new RouteRow("/login", Set.of())));

    record RouteRow(String path, Set<String> roles) {
    }

    enum Caller {
        ANONYMOUS(null), SUPPORT(ConsoleRole.SUPPORT), ADMIN(ConsoleRole.ADMIN);

        final @Nullable ConsoleRole role;

        Caller(@Nullable ConsoleRole role) {
            this.role = role;
        }

        boolean mayCall(Rule rule) {
            return role != null && (role == ConsoleRole.ADMIN || rule.least() == ConsoleRole.SUPPORT);
        }
    }

    @Autowired
    ApplicationContext context;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    ClaimService claims;

    @Autowired
    CancelService cancels;

    @Autowired
    ApprovalService approvals;

    @Autowired
    LifecycleService lifecycle;

    @Autowired
    AttestService devices;

    @LocalServerPort
    int port;

    @AfterEach
    void clearSecurityContext() {
        SecurityContextHolder.clearContext();
    }

    @Test
    void everyRoleCheckedFacadeMethodHasARowAndEveryRowAMethod() {
        assertThat(new TreeSet<>(facadeMethods().keySet()))
                .as("role-checked façade methods vs FACADE_MATRIX: add a row for a new console action")
                .isEqualTo(new TreeSet<>(FACADE_MATRIX.keySet()));
    }

    @Test
    void everyCallerGetsExactlyWhatTheMatrixAllowsAndARefusalChangesNothing() throws Exception {
        List<String> violations = new ArrayList<>();
        int refused = 0;
        int allowed = 0;
        for (var entry : facadeMethods().entrySet()) {
            Rule rule = FACADE_MATRIX.get(entry.getKey());
            if (rule == null) {
                violations.add(entry.getKey() + ": no row in FACADE_MATRIX");
                continue;
            }
            Method method = entry.getValue().method();
            Object bean = entry.getValue().bean();
            for (Caller caller : Caller.values()) {
                signIn(caller);
                String label = caller + " × " + entry.getKey();
                Map<String, Long> before = rowCounts();
                Object result;
                Throwable thrown = null;
                try {
                    result = method.invoke(bean, arguments(method));
                } catch (InvocationTargetException e) {
                    result = null;
                    thrown = e.getCause();
                } finally {
                    SecurityContextHolder.clearContext();
                }
                boolean accessRefused = thrown instanceof AccessDeniedException
                        || thrown instanceof AuthenticationException
                        || result instanceof ReplayStartOutcome.NotAllowed;
                if (caller.mayCall(rule)) {
                    allowed++;
                    if (accessRefused) {
                        violations.add(label + ": allowed but refused: " + (thrown != null ? thrown : result));
                    }
                    continue;
                }
                refused++;
                Class<? extends Throwable> expected = caller == Caller.ANONYMOUS
                        ? AuthenticationCredentialsNotFoundException.class : AccessDeniedException.class;
                boolean refusedAsExpected = rule.refusal() == Refusal.IN_METHOD_NOT_ALLOWED && caller != Caller.ANONYMOUS
                        ? result instanceof ReplayStartOutcome.NotAllowed
                        : expected.isInstance(thrown);
                if (!refusedAsExpected) {
                    violations.add(label + ": not refused as expected (" + expected.getSimpleName() + "), got "
                            + (thrown != null ? thrown : result));
                }
                Map<String, Long> after = rowCounts();
                if (!after.equals(before)) {
                    violations.add(label + ": refused but rows changed: " + difference(before, after));
                }
            }
        }
        assertThat(violations).as("authorisation matrix violations").isEmpty();
        assertThat(refused).as("refused cases run").isGreaterThanOrEqualTo(FACADE_MATRIX.size());
        assertThat(allowed).as("allowed cases run").isGreaterThanOrEqualTo(FACADE_MATRIX.size());
    }

    /**
     * Two writes on real targets, for each caller: an allowed one changes the target and writes its
     * audit row (actor, action, target); a refused one leaves both alone.
     */
    @Test
    void anAllowedWriteOnARealTargetIsAuditedAndARefusedOneLeavesItAlone() {
        for (Caller caller : Caller.values()) {
            OperationId operation = Operations.claim(claims, new SubjectId("matrix-" + UUID.randomUUID()), 1).getFirst();
            String before = status(operation);
            String actor = signIn(caller);
            Throwable thrown = catchThrowable(() -> cancels.cancelAsStaff(operation, "matrix"));
            SecurityContextHolder.clearContext();
            boolean allowed = caller.mayCall(FACADE_MATRIX.get("CancelService#cancelAsStaff(OperationId,String)"));
            assertThat(allowed).as(caller + " may cancel").isEqualTo(caller != Caller.ANONYMOUS);
            if (allowed) {
                assertThat(thrown).as(caller + " cancel").isNull();
                assertThat(audited(actor, "CANCEL_OPERATION", operation.toString())).as(caller + " cancel audited")
                        .isEqualTo(1);
                assertThat(jdbc.queryForObject("SELECT count(*) FROM operation_cancel c JOIN operation o ON o.id = c.operation_ref WHERE o.operation_id = ?",
                        Long.class, operation.value())).as(caller + " cancel recorded").isEqualTo(1);
            } else {
                assertThat(thrown).as(caller + " cancel").isInstanceOf(AuthenticationCredentialsNotFoundException.class);
                assertThat(status(operation)).as(caller + " cancel").isEqualTo(before);
                assertThat(jdbc.queryForObject("SELECT count(*) FROM operation_cancel c JOIN operation o ON o.id = c.operation_ref WHERE o.operation_id = ?",
                        Long.class, operation.value())).as(caller + " cancel recorded").isZero();
                assertThat(audited(null, "CANCEL_OPERATION", operation.toString())).isZero();
            }
        }
        for (Caller caller : Caller.values()) {
            String key = insertKey();
            String actor = signIn(caller);
            Throwable thrown = catchThrowable(() -> devices.revoke(key, "matrix"));
            SecurityContextHolder.clearContext();
            boolean revoked = jdbc.queryForObject("SELECT revoked_at IS NOT NULL FROM attest_key WHERE key_id = ?",
                    Boolean.class, (Object) Base64.getDecoder().decode(key));
            if (caller.mayCall(FACADE_MATRIX.get("AttestService#revoke(String,String)"))) {
                assertThat(caller).isEqualTo(Caller.ADMIN);
                assertThat(thrown).as(caller + " revoke").isNull();
                assertThat(revoked).as(caller + " revoked").isTrue();
                assertThat(audited(actor, "REVOKE_DEVICE_KEY", key)).as(caller + " revoke audited").isEqualTo(1);
            } else {
                assertThat(thrown).as(caller + " revoke").isInstanceOf(caller == Caller.ANONYMOUS
                        ? AuthenticationCredentialsNotFoundException.class : AccessDeniedException.class);
                assertThat(revoked).as(caller + " revoked").isFalse();
                assertThat(audited(null, "REVOKE_DEVICE_KEY", key)).isZero();
            }
        }
    }

    /** Approve and reject, for each caller, on an operation awaiting approval. */
    @Test
    void anAllowedDecisionIsAuditedAndARefusedOneLeavesTheOperationAwaitingApproval() {
        for (boolean approve : new boolean[] {true, false}) {
            String action = approve ? "APPROVE_OPERATION" : "REJECT_OPERATION";
            Rule rule = FACADE_MATRIX.get(approve ? "ApprovalService#approve(SubjectId,OperationId,String)"
                    : "ApprovalService#reject(SubjectId,OperationId,String)");
            for (Caller caller : Caller.values()) {
                SubjectId subject = new SubjectId("matrix-" + UUID.randomUUID());
                OperationId operation = awaitingApproval(subject);
                String actor = signIn(caller);
                Throwable thrown = catchThrowable(() -> {
                    if (approve) {
                        approvals.approve(subject, operation, "matrix");
                    } else {
                        approvals.reject(subject, operation, "matrix");
                    }
                });
                SecurityContextHolder.clearContext();
                String label = caller + " " + action;
                if (caller.mayCall(rule)) {
                    assertThat(thrown).as(label).isNull();
                    assertThat(status(operation)).as(label).isNotEqualTo("AWAITING_APPROVAL");
                    assertThat(audited(actor, action, operation.toString())).as(label + " audited").isEqualTo(1);
                } else {
                    assertThat(thrown).as(label).isInstanceOf(AuthenticationCredentialsNotFoundException.class);
                    assertThat(status(operation)).as(label).isEqualTo("AWAITING_APPROVAL");
                    assertThat(audited(null, action, operation.toString())).as(label + " audited").isZero();
                }
            }
        }
    }

    /** As ApprovalServiceIT makes one: claimed, leased by a test node, its run finished awaiting approval. */
    private OperationId awaitingApproval(SubjectId subject) {
        OperationId operation = Operations.claim(claims, subject, 1, "checkout", "{}").getFirst();
        LeasedOperation leased = lifecycle.lease("matrix-node", 1000, Duration.ofSeconds(30)).stream()
                .filter(candidate -> candidate.operationId().equals(operation)).findFirst().orElseThrow();
        assertThat(lifecycle.finishRun(leased.fence(), "matrix-node", OperationStatus.AWAITING_APPROVAL,
                "amount 900.00 is over the approval limit 500.00")).isTrue();
        return operation;
    }

    private String status(OperationId operation) {
        return jdbc.queryForObject("SELECT status FROM operation WHERE operation_id = ?", String.class, operation.value());
    }

    private long audited(@Nullable String actor, String action, String target) {
        return jdbc.queryForObject("SELECT count(*) FROM console_audit WHERE action = ? AND target = ? "
                + "AND (CAST(? AS text) IS NULL OR actor = ?)", Long.class, action, target, actor, actor);
    }

    /** A registered key as the attest stage stores it (as DeviceRevocationIT inserts one). */
    private String insertKey() {
        var random = new java.security.SecureRandom();
        byte[] keyId = new byte[32];
        byte[] publicKey = new byte[65];
        byte[] receipt = new byte[64];
        byte[] challenge = new byte[32];
        random.nextBytes(keyId);
        random.nextBytes(publicKey);
        random.nextBytes(receipt);
        random.nextBytes(challenge);
        publicKey[0] = 0x04;
        jdbc.update("INSERT INTO attest_key (key_id, subject_id, public_key, app_id, environment, receipt, "
                        + "registration_challenge_hash) VALUES (?, ?, ?, ?, ?, ?, ?)",
                keyId, "matrix-" + UUID.randomUUID(), publicKey, "OPLEDGERDV.dev.opledger.simulator", "DEVELOPMENT",
                receipt, challenge);
        return Base64.getEncoder().encodeToString(keyId);
    }

    @Test
    void everyConsoleRouteHasARowWithTheRolesItsAnnotationNames() {
        Map<String, Set<String>> routes = new TreeMap<>();
        for (JavaClass type : new ClassFileImporter().withImportOption(new ProductionCode())
                .importPackages("dev.opledger.ui")) {
            if (type.isAnnotatedWith(Route.class)) {
                Class<?> view = type.reflect();
                RolesAllowed roles = view.getAnnotation(RolesAllowed.class);
                routes.put(view.getSimpleName(), roles == null ? Set.of() : Set.of(roles.value()));
            }
        }
        assertThat(routes.keySet()).as("@Route classes vs ROUTE_MATRIX").isEqualTo(ROUTE_MATRIX.keySet());
        routes.forEach((view, roles) -> assertThat(roles).as(view).isEqualTo(ROUTE_MATRIX.get(view).roles()));
    }

    @Test
    void anonymousRequestsForEveryRouteGoToLoginAndSignedInStaffGetEveryView() {
        var console = new ConsoleClient(port);
        String support = ConsoleClient.session(console.signIn("support", "support-test")).orElseThrow();
        String admin = ConsoleClient.session(console.signIn("admin", "admin-test")).orElseThrow();
        for (var row : ROUTE_MATRIX.entrySet()) {
            String path = row.getValue().path();
            var anonymous = console.get(path, null);
            if (row.getValue().roles().isEmpty()) {
                assertThat(anonymous.statusCode()).as("anonymous " + path).isEqualTo(200);
                continue;
            }
            assertThat(anonymous.statusCode()).as("anonymous " + path).isEqualTo(302);
            assertThat(anonymous.headers().firstValue("Location")).as("anonymous " + path).hasValueSatisfying(
                    location -> assertThat(URI.create(location).getPath()).isEqualTo("/login"));
            if (row.getValue().roles().contains("SUPPORT")) {
                assertThat(console.get(path, support).statusCode()).as("support " + path).isEqualTo(200);
            }
            assertThat(console.get(path, admin).statusCode()).as("admin " + path).isEqualTo(200);
        }
    }

    record Facade(Object bean, Method method) {
    }

    /** Every public method of an application bean that carries @PreAuthorize on it or its class. */
    private Map<String, Facade> facadeMethods() {
        Map<String, Facade> found = new TreeMap<>();
        for (String name : context.getBeanDefinitionNames()) {
            Class<?> type = context.getType(name);
            if (type == null) {
                continue;
            }
            Class<?> target = AopUtils.isAopProxy(type) || type.getName().contains("$$") ? type.getSuperclass() : type;
            if (!target.getPackageName().startsWith("dev.opledger.") || isTestCode(target)) {
                continue;
            }
            boolean classChecked = target.isAnnotationPresent(PreAuthorize.class);
            for (Method method : target.getDeclaredMethods()) {
                if (!Modifier.isPublic(method.getModifiers()) || Modifier.isStatic(method.getModifiers())
                        || method.isSynthetic()) {
                    continue;
                }
                if (classChecked || method.isAnnotationPresent(PreAuthorize.class)) {
                    found.put(key(target, method), new Facade(context.getBean(name), method));
                }
            }
        }
        return found;
    }

    /** A fixture of this module's tests (e.g. the ArchUnit examples' UnauditedFacade), not the node's code. */
    private static boolean isTestCode(Class<?> type) {
        var source = type.getProtectionDomain().getCodeSource();
        return source != null && source.getLocation().toString().matches(".*(/test-classes/|-tests\\.jar).*");
    }

    private static String key(Class<?> type, Method method) {
        return type.getSimpleName() + "#" + method.getName() + "(" + Arrays.stream(method.getParameterTypes())
                .map(Class::getSimpleName).collect(Collectors.joining(",")) + ")";
    }

    /** Placeholder arguments: a target that does not exist, so an allowed call gets a domain answer. */
    private static Object[] arguments(Method method) {
        return Arrays.stream(method.getParameterTypes()).map(ConsoleAuthorisationMatrixIT::placeholder).toArray();
    }

    private static @Nullable Object placeholder(Class<?> type) {
        if (type == int.class) {
            return 1;
        }
        if (type == long.class) {
            return 987_654_321L;
        }
        if (type == boolean.class) {
            return false;
        }
        if (type == String.class) {
            return "matrix";
        }
        if (type == SubjectId.class) {
            return new SubjectId("matrix-subject");
        }
        if (type == OperationId.class) {
            return OperationId.random();
        }
        if (type == UUID.class) {
            return UUID.randomUUID();
        }
        if (type == Instant.class) {
            return Instant.now();
        }
        if (type == Collection.class) {
            return List.of();
        }
        if (type == LedgerFilter.class) {
            return LedgerFilter.none();
        }
        if (type == RetryPolicy.class) {
            return RetryPolicy.DEFAULTS;
        }
        if (type == Duration.class) {
            return Duration.ofSeconds(1);
        }
        if (type.isEnum()) {
            return type.getEnumConstants()[0];
        }
        return null;
    }

    private Map<String, Long> rowCounts() {
        List<String> tables = jdbc.queryForList("SELECT table_name FROM information_schema.tables "
                + "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' "
                + "AND table_name NOT LIKE 'databasechangelog%'", String.class);
        String union = tables.stream().map(t -> "SELECT '" + t + "' AS t, count(*) AS n FROM \"" + t + "\"")
                .collect(Collectors.joining(" UNION ALL "));
        Map<String, Long> counts = new TreeMap<>();
        jdbc.query(union, rs -> {
            counts.put(rs.getString("t"), rs.getLong("n"));
        });
        return counts;
    }

    private static String difference(Map<String, Long> before, Map<String, Long> after) {
        return Stream.concat(before.keySet().stream(), after.keySet().stream()).distinct()
                .filter(t -> !java.util.Objects.equals(before.get(t), after.get(t)))
                .map(t -> t + " " + before.get(t) + "→" + after.get(t)).collect(Collectors.joining(", "));
    }

    private static @Nullable String signIn(Caller caller) {
        if (caller.role == null) {
            return null;
        }
        String name = "matrix-" + caller.name().toLowerCase(java.util.Locale.ROOT);
        SecurityContextHolder.getContext().setAuthentication(UsernamePasswordAuthenticationToken.authenticated(
                name, null, AuthorityUtils.createAuthorityList(caller.role.authority())));
        return name;
    }
}
