package dev.opledger.testing;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Row counts of every table of the node's schema (Liquibase's own excepted), in one query: for
 * "a refused request changed nothing", whatever tables the stages add later.
 */
public final class LedgerTables {

    private final JdbcTemplate jdbc;
    private final String countAll;

    public LedgerTables(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
        List<String> tables = jdbc.queryForList("SELECT table_name FROM information_schema.tables "
                + "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' "
                + "AND table_name NOT LIKE 'databasechangelog%' ORDER BY table_name", String.class);
        if (tables.isEmpty()) {
            throw new IllegalStateException("the node's schema has no tables");
        }
        this.countAll = tables.stream()
                .map(table -> "SELECT '" + table + "' AS name, count(*) AS n FROM \"" + table + "\"")
                .collect(Collectors.joining(" UNION ALL "));
    }

    public Map<String, Long> counts() {
        Map<String, Long> counts = new LinkedHashMap<>();
        jdbc.query(countAll, row -> {
            counts.put(row.getString("name"), row.getLong("n"));
        });
        return counts;
    }
}
