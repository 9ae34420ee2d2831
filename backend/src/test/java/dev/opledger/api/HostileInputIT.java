package dev.opledger.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opledger.testing.DocumentedProblems;
import dev.opledger.testing.LedgerTables;
import dev.opledger.testing.NodeIntegrationTest;
import dev.opledger.testing.RawHttp;
import java.io.UncheckedIOException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Generated hostile requests at the API's edge (see {@link HostileRequests}), written over a
 * socket one after another: none gets a 5xx, every refusal is a problem whose type
 * docs/problems.md lists, a 2xx comes only for a valid request (and then with exactly one
 * operation row for a new operationId; a cancel of one's own operation changes only the cancel's
 * rows), and a refused request changes no table.
 *
 * <p>Each run draws a new seed and prints it; {@code -Dopledger.hostile.seed=<seed>} generates
 * the same requests again. {@code -Dopledger.hostile.requests=<n>} sets how many (default
 * 1,200), {@code -Dopledger.hostile.exclude=<category>,…} leaves mutations of those categories
 * out (for a local run only: by default every category is in).
 */
@NodeIntegrationTest
class HostileInputIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int SHOWN_FAILURES = 40;

    @LocalServerPort
    int port;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void noHostileRequestGetsA5xxOrAnUndocumentedAnswerOrChangesTheLedger() {
        long seed = Long.getLong("opledger.hostile.seed", new SecureRandom().nextLong());
        int count = Integer.getInteger("opledger.hostile.requests", 1200);
        Set<String> excluded = Arrays.stream(System.getProperty("opledger.hostile.exclude", "").split(","))
                .map(String::strip).filter(category -> !category.isEmpty()).collect(Collectors.toSet());
        System.out.printf("HostileInputIT: seed %d (-Dopledger.hostile.seed=%d to repeat), %d requests, excluded %s%n",
                seed, seed, count, excluded);

        var generator = new HostileRequests(seed, Long.toHexString(seed), excluded);
        var documented = DocumentedProblems.types();
        var tables = new LedgerTables(jdbc);
        var http = new RawHttp(port);
        List<String> failures = new ArrayList<>();
        Map<String, Integer> failuresByCategory = new TreeMap<>();
        Map<String, Integer> outcomes = new TreeMap<>();
        long started = System.nanoTime();
        Map<String, Long> before = tables.counts();
        for (int index = 0; index < count; index++) {
            HostileRequest hostile = generator.next(index);
            List<String> wrong;
            String answered;
            try {
                RawHttp.Response response = http.send(hostile.request());
                Map<String, Long> after = tables.counts();
                wrong = check(hostile, response, before, after, documented);
                answered = response.status() + " " + abbreviated(response.text());
                outcomes.merge(hostile.expect().getClass().getSimpleName() + " → " + response.status(), 1, Integer::sum);
                before = after;
            } catch (UncheckedIOException e) {
                wrong = List.of("no complete response: " + e.getMessage());
                answered = "nothing";
                before = tables.counts();
            }
            if (wrong.isEmpty() && hostile.expect() instanceof HostileRequest.Creates creates) {
                generator.accepted(creates);
            }
            if (!wrong.isEmpty()) {
                failures.add("#" + index + " " + hostile.description() + " " + hostile.categories() + ": "
                        + String.join("; ", wrong) + " (answered " + answered + ")");
                Set<String> categories = hostile.categories().isEmpty() ? Set.of("(none)") : hostile.categories();
                categories.forEach(category -> failuresByCategory.merge(category, 1, Integer::sum));
            }
        }
        failures.forEach(failure -> System.out.println("HostileInputIT: " + failure));
        System.out.printf("HostileInputIT: %d requests in %d ms; expected → status: %s%n", count,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), outcomes);

        assertThat(failures)
                .as("seed %d: %d of %d requests answered wrongly; failures by category %s; the first:%n%s", seed,
                        failures.size(), count, failuresByCategory,
                        String.join("\n", failures.subList(0, Math.min(SHOWN_FAILURES, failures.size()))))
                .isEmpty();
    }

    private List<String> check(HostileRequest hostile, RawHttp.Response response, Map<String, Long> before,
            Map<String, Long> after, Set<String> documented) {
        List<String> wrong = new ArrayList<>();
        int status = response.status();
        boolean success = status >= 200 && status < 300;
        if (status >= 500) {
            wrong.add("status " + status);
        }
        if (!success) {
            checkProblem(response, documented, wrong);
        } else if (!Objects.equals(response.header("Preference-Applied"), hostile.preferenceApplied())) {
            wrong.add("Preference-Applied " + response.header("Preference-Applied") + ", not "
                    + hostile.preferenceApplied());
        }
        Set<String> changed = changedTables(before, after);
        switch (hostile.expect()) {
            case HostileRequest.Creates creates -> {
                if (!success) {
                    wrong.add("a valid command was refused");
                }
                Long rows = jdbc.queryForObject("SELECT count(*) FROM operation WHERE subject_id = ? AND operation_id = ?",
                        Long.class, creates.subject(), creates.operationId());
                if (!Objects.equals(rows, 1L)) {
                    wrong.add(rows + " operation rows for it");
                }
                // the claim's one statement: the operation, its attempt, its first transition and its first event
                if (!Set.of("operation", "operation_attempt", "operation_transition", "outbox_event").containsAll(changed)
                        || after.get("operation") - before.get("operation") != 1
                        || after.get("operation_transition") - before.get("operation_transition") != 1
                        || after.get("outbox_event") - before.get("outbox_event") != 1) {
                    wrong.add("tables changed: " + difference(before, after));
                }
            }
            case HostileRequest.Replays replays -> {
                if (!success) {
                    wrong.add("a replay was refused");
                }
                if (!Set.of("operation_attempt").containsAll(changed)) {
                    wrong.add("tables changed: " + difference(before, after));
                }
            }
            case HostileRequest.Cancels cancels -> {
                if (!success) {
                    wrong.add("a cancel of the caller's own operation was refused");
                }
                if (!Set.of("operation_cancel", "operation_transition", "outbox_event").containsAll(changed)) {
                    wrong.add("tables changed: " + difference(before, after));
                }
            }
            case HostileRequest.Reads reads -> {
                if (!success) {
                    wrong.add("a read of the caller's own operation was refused");
                }
                if (!changed.isEmpty()) {
                    wrong.add("tables changed: " + difference(before, after));
                }
            }
            case HostileRequest.Refused refused -> {
                if (success) {
                    wrong.add("an invalid request was accepted");
                }
                if (!changed.isEmpty()) {
                    wrong.add("tables changed: " + difference(before, after));
                }
            }
        }
        return wrong;
    }

    /** A documented problem+json whose status is the response's (HostileMcpInputIT checks its 401s with it). */
    static void checkProblem(RawHttp.Response response, Set<String> documented, List<String> wrong) {
        String contentType = response.header("Content-Type");
        if (contentType == null || !contentType.startsWith("application/problem+json")) {
            wrong.add("Content-Type " + contentType);
            return;
        }
        JsonNode problem;
        try {
            problem = JSON.readTree(response.body());
        } catch (RuntimeException e) {
            wrong.add("the problem is not JSON");
            return;
        }
        JsonNode type = problem.get("type");
        if (type == null || !documented.contains(type.asString())) {
            wrong.add("type " + type + " is not in docs/problems.md");
        }
        JsonNode status = problem.get("status");
        if (status == null || status.asInt() != response.status()) {
            wrong.add("problem status " + status);
        }
    }

    private static Set<String> changedTables(Map<String, Long> before, Map<String, Long> after) {
        return after.keySet().stream().filter(table -> !Objects.equals(before.get(table), after.get(table)))
                .collect(Collectors.toSet());
    }

    private static String difference(Map<String, Long> before, Map<String, Long> after) {
        return changedTables(before, after).stream().sorted()
                .map(table -> table + " " + before.get(table) + "→" + after.get(table))
                .collect(Collectors.joining(", "));
    }

    private static String abbreviated(String text) {
        String line = text.replace('\n', ' ');
        return line.length() > 160 ? line.substring(0, 160) + "…" : line;
    }
}
