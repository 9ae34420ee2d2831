package dev.opledger.e2e;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** Small JDBC reads for assertions on what the node committed. */
final class E2eQueries {

    private E2eQueries() {
    }

    static long count(Connection db, String sql, Object... parameters) throws SQLException {
        List<Object> values = list(db, sql, parameters);
        return values.isEmpty() || values.getFirst() == null ? 0 : ((Number) values.getFirst()).longValue();
    }

    static List<Object> list(Connection db, String sql, Object... parameters) throws SQLException {
        try (var statement = db.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            List<Object> values = new ArrayList<>();
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    values.add(rows.getObject(1));
                }
            }
            return values;
        }
    }
}
