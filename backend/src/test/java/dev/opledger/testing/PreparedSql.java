package dev.opledger.testing;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A statement as the node sends it, for PostgreSQL's own PREPARE (plan tests). */
public final class PreparedSql {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\?(?!\\?)");

    private PreparedSql() {
    }

    /** JDBC's ? placeholders as PREPARE's $1, $2, … (a doubled ?? is an escaped operator, left alone). */
    public static String numbered(String sql) {
        Matcher placeholder = PLACEHOLDER.matcher(sql);
        var numbered = new StringBuilder();
        int n = 0;
        while (placeholder.find()) {
            placeholder.appendReplacement(numbered, "\\$" + ++n);
        }
        placeholder.appendTail(numbered);
        return numbered.toString();
    }
}
