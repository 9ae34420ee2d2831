package dev.opledger.e2e.checkout;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Every transaction the node makes through its DataSource, with its statements and the component
 * that made it: a proxy around the pool. A transaction is what PostgreSQL counts in
 * {@code xact_commit}: a {@code commit()} after at least one statement (pgjdbc sends nothing for
 * an empty one), or a statement executed in autocommit. Checks the pool makes on its raw
 * connections (Hikari's {@code isValid()}, after 500 ms idle) are not seen here.
 */
final class TransactionRecorder {

    /** One committed (or rolled back) transaction. */
    record Transaction(String component, String thread, List<String> statements, boolean autocommit, boolean committed) {

        /** Whether it wrote anything: a read-only transaction is a poll or a status read. */
        boolean writes() {
            return statements.stream().anyMatch(s -> !s.startsWith("SELECT") || s.contains("FOR UPDATE")
                    || s.startsWith("SELECT pg_notify"));
        }

        @Override
        public String toString() {
            return (committed ? "" : "ROLLBACK ") + component + " [" + thread + "]" + (autocommit ? " (autocommit)" : "")
                    + ": " + String.join("; ", statements);
        }
    }

    private static final Pattern TABLE = Pattern.compile(
            "(?i)\\b(?:into|update|from|delete from)\\s+([a-z_][a-z0-9_.]*)");

    final List<Transaction> transactions = new CopyOnWriteArrayList<>();
    private volatile boolean recording;

    void start() {
        transactions.clear();
        recording = true;
    }

    List<Transaction> stop() {
        recording = false;
        return List.copyOf(transactions);
    }

    /** How many transactions were recorded since {@link #start()}. */
    int count() {
        return transactions.size();
    }

    /**
     * Wraps every DataSource bean of the node in this recorder: for a test configuration's static
     * {@code @Bean} method, so the pool is wrapped before anything uses it.
     */
    BeanPostProcessor wrappingDataSources() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String name) {
                return bean instanceof DataSource source && !Proxy.isProxyClass(bean.getClass()) ? wrap(source) : bean;
            }
        };
    }

    DataSource wrap(DataSource target) {
        return (DataSource) Proxy.newProxyInstance(TransactionRecorder.class.getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    Object result = invoke(target, method, args);
                    return result instanceof Connection connection ? connection(connection) : result;
                });
    }

    private Connection connection(Connection target) {
        List<String> open = new ArrayList<>();
        InvocationHandler handler = (proxy, method, args) -> {
            String name = method.getName();
            if (name.equals("commit") || name.equals("rollback") && (args == null || args.length == 0)) {
                synchronized (open) {
                    if (!open.isEmpty()) {
                        record(List.copyOf(open), false, name.equals("commit"));
                        open.clear();
                    }
                }
            } else if (name.equals("setAutoCommit") && Boolean.TRUE.equals(args[0]) && !target.getAutoCommit()) {
                synchronized (open) {
                    if (!open.isEmpty()) {
                        // JDBC: turning autocommit on commits the transaction under way
                        record(List.copyOf(open), false, true);
                        open.clear();
                    }
                }
            }
            Object result = invoke(target, method, args);
            if (result instanceof Statement statement && !name.equals("unwrap")) {
                String sql = args != null && args.length > 0 && args[0] instanceof String s ? s : null;
                return statement(target, statement, sql, open);
            }
            return result;
        };
        return (Connection) Proxy.newProxyInstance(TransactionRecorder.class.getClassLoader(),
                new Class<?>[] {Connection.class}, handler);
    }

    private Statement statement(Connection connection, Statement target, String prepared, List<String> open) {
        Class<?>[] types = target instanceof CallableStatement ? new Class<?>[] {CallableStatement.class}
                : target instanceof PreparedStatement ? new Class<?>[] {PreparedStatement.class}
                : new Class<?>[] {Statement.class};
        return (Statement) Proxy.newProxyInstance(TransactionRecorder.class.getClassLoader(), types,
                (proxy, method, args) -> {
                    if (method.getName().startsWith("execute")) {
                        String sql = args != null && args.length > 0 && args[0] instanceof String s ? s : prepared;
                        String summary = summary(sql) + (method.getName().equals("executeBatch") ? " (batch)" : "");
                        if (connection.getAutoCommit()) {
                            record(List.of(summary), true, true);
                        } else {
                            synchronized (open) {
                                open.add(summary);
                            }
                        }
                    }
                    return invoke(target, method, args);
                });
    }

    private void record(List<String> statements, boolean autocommit, boolean committed) {
        if (recording) {
            transactions.add(new Transaction(component(), Thread.currentThread().getName(), statements, autocommit,
                    committed));
        }
    }

    /** The outermost and the innermost frame of the node's code: who runs it, and which class issued it. */
    private static String component() {
        String outer = null;
        String inner = null;
        for (StackTraceElement frame : Thread.currentThread().getStackTrace()) {
            String type = frame.getClassName();
            if (type.startsWith("dev.opledger.") && !type.startsWith("dev.opledger.e2e.") && !type.contains("$$")) {
                String shortName = type.substring(type.lastIndexOf('.') + 1) + "." + frame.getMethodName();
                if (inner == null) {
                    inner = shortName;
                }
                outer = shortName;
            }
        }
        return inner == null ? "?" : outer.equals(inner) ? inner : outer + " > " + inner;
    }

    /** The statement's first word and its table (for a SELECT of a function: the function). */
    static String summary(String sql) {
        if (sql == null) {
            return "?";
        }
        String flat = sql.replaceAll("--[^\n]*", " ").replaceAll("\\s+", " ").trim();
        String verb = flat.split(" ", 2)[0].toUpperCase(Locale.ROOT);
        if (verb.equals("WITH")) {
            // the statement after the CTEs says what it does; the CTEs' own verbs too
            List<String> verbs = new ArrayList<>();
            Matcher each = Pattern.compile("(?i)\\b(insert into|update|delete from)\\s+([a-z_][a-z0-9_.]*)").matcher(flat);
            while (each.find()) {
                verbs.add(each.group(1).split(" ")[0].toUpperCase(Locale.ROOT) + " " + each.group(2));
            }
            return "WITH" + (verbs.isEmpty() ? " SELECT " + table(flat) : " " + String.join("+", verbs));
        }
        if (verb.equals("SELECT") && flat.toLowerCase(Locale.ROOT).contains("pg_notify")) {
            return "SELECT pg_notify";
        }
        String suffix = flat.toUpperCase(Locale.ROOT).contains("FOR UPDATE") ? " FOR UPDATE" : "";
        return verb + " " + table(flat) + suffix;
    }

    private static String table(String flat) {
        Matcher matcher = TABLE.matcher(flat);
        return matcher.find() ? matcher.group(1).toLowerCase(Locale.ROOT) : "";
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
