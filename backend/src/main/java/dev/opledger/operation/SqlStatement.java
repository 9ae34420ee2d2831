package dev.opledger.operation;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.ArgumentPreparedStatementSetter;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.ResultSetExtractor;
import org.springframework.jdbc.core.SqlParameterValue;

/**
 * A write as one SQL statement, a value that can be run on its own or sent with the other writes
 * of its transaction in one round trip (issue 13: the effect stage's {@code RunWrites} sends a
 * step's outcome, a checkpoint and the end of a run so). Its parameters are bound from
 * {@code first}, the index of its first placeholder in the statements sent together. In the
 * kernel because every stage on the path writes so: the claim's end of a run, the effect's
 * records, the graph's checkpoints.
 */
public record SqlStatement<T>(String sql, int parameters, Binder binder, Reader<T> reader) {

    /** Binds the statement's parameters, its first at index {@code first}. */
    @FunctionalInterface
    public interface Binder {
        void bind(PreparedStatement statement, int first) throws SQLException;
    }

    /** What the statement answers, from its rows. */
    @FunctionalInterface
    public interface Reader<T> {
        T read(ResultSet rows) throws SQLException;
    }

    /**
     * A statement whose parameters are {@code arguments}, bound as {@link JdbcTemplate} binds them.
     * A null must say its type ({@link #text}, or a {@link SqlParameterValue} of another): bound
     * untyped, Spring asks the driver for the parameter's type, and for statements sent together
     * PgJDBC answers with a round trip of its own, which in autocommit is a transaction of its own
     * too (issue 13: a commit more a checkout, measured). Refused here rather than found in a
     * benchmark.
     */
    public static <T> SqlStatement<T> of(String sql, Reader<T> reader, @Nullable Object... arguments) {
        for (int i = 0; i < arguments.length; i++) {
            if (arguments[i] == null) {
                throw new IllegalArgumentException("parameter " + (i + 1) + " is an untyped null: give its type "
                        + "(SqlStatement.text, or a SqlParameterValue)");
            }
        }
        var values = new Arguments(arguments.clone());
        return new SqlStatement<>(sql, arguments.length, values::bindFrom, reader);
    }

    /**
     * A text parameter that may be null, bound as varchar either way. An untyped null is bound as
     * "unspecified": PgJDBC prepares a statement again on the server whenever a parameter's type
     * changes from the last execution on the connection (a step with an idempotency key, then one
     * without, was parsed and planned anew on every call), and describes a statement sent with
     * others in a round trip of its own ({@link #of}; issue 13, docs/benchmarks.md).
     */
    public static SqlParameterValue text(@Nullable String value) {
        return new SqlParameterValue(Types.VARCHAR, value);
    }

    /** JdbcTemplate's own binding of arguments, from a given index rather than the first. */
    private static final class Arguments extends ArgumentPreparedStatementSetter {

        private final @Nullable Object[] values;

        Arguments(@Nullable Object[] values) {
            super(values);
            this.values = values;
        }

        void bindFrom(PreparedStatement statement, int first) throws SQLException {
            for (int i = 0; i < values.length; i++) {
                doSetValue(statement, first + i, values[i]);
            }
        }
    }

    /** Runs the statement on its own. */
    public T run(JdbcTemplate jdbc) {
        return jdbc.query(sql, statement -> binder.bind(statement, 1), (ResultSetExtractor<T>) reader::read);
    }
}
