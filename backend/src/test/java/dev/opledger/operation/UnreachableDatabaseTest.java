package dev.opledger.operation;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;

class UnreachableDatabaseTest {

    @Test
    void aPoolTimeoutALostConnectionAndAServerShuttingDownAreOutagesWhateverWrapsThem() {
        assertThat(UnreachableDatabase.causedBy(new CannotGetJdbcConnectionException("Failed to obtain JDBC Connection",
                new SQLTransientConnectionException("opledger - Connection is not available, request timed out after 5000ms"))))
                .isTrue();
        assertThat(UnreachableDatabase.causedBy(new DataAccessResourceFailureException("PreparedStatementCallback",
                new SQLException("FATAL: terminating connection due to administrator command", "57P01")))).isTrue();
        assertThat(UnreachableDatabase.causedBy(new IllegalStateException(new SQLException("I/O error", "08006"))))
                .isTrue();
    }

    @Test
    void aConstraintViolationASyntaxErrorAndAnExceptionWithoutSqlAreNot() {
        assertThat(UnreachableDatabase.causedBy(new DataIntegrityViolationException("duplicate",
                new SQLException("duplicate key", "23505")))).isFalse();
        assertThat(UnreachableDatabase.causedBy(new SQLException("syntax error", "42601"))).isFalse();
        assertThat(UnreachableDatabase.causedBy(new SQLException("no state"))).isFalse();
        assertThat(UnreachableDatabase.causedBy(new IllegalStateException("nothing to do with a database"))).isFalse();
    }

    @Test
    void theReasonIsTheInnermostCauseNotTheStatement() {
        assertThat(UnreachableDatabase.reason(new DataAccessResourceFailureException("PreparedStatementCallback; SQL [SELECT 1]",
                new SQLException("Connection refused", "08001")))).isEqualTo("SQLException: Connection refused");
    }
}
