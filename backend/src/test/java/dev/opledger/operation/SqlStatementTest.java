package dev.opledger.operation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Types;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.SqlParameterValue;

/**
 * Issue 13: a statement sent with others binds no untyped null, because PgJDBC answers one with a
 * round trip (and, in autocommit, a transaction) of its own before the statements: measured as a
 * commit more a checkout when the end of a run carried two.
 */
class SqlStatementTest {

    @Test
    void anUntypedNullIsRefusedAndNamed() {
        assertThatThrownBy(() -> SqlStatement.of("SELECT ?, ?::text", rows -> true, "a", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("parameter 2 is an untyped null");
    }

    @Test
    void aTypedNullIsBound() {
        var statement = SqlStatement.of("SELECT ?::text, ?::bigint", rows -> true, SqlStatement.text(null),
                new SqlParameterValue(Types.BIGINT, null));

        assertThat(statement.parameters()).isEqualTo(2);
        assertThat(SqlStatement.text(null).getSqlType()).isEqualTo(Types.VARCHAR);
    }
}
