import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Prints the pgbench script of the claim: the very SQL string the node runs
 * (the text block ClaimStatement.SQL, read from its source file), with its
 * parameters bound to pgbench variables. Fresh keys and request ids come from gen_random_uuid(),
 * because pgbench cannot make UUIDs on the client; duplicates use the seeded keys
 * 00000000-0000-4000-8000-<i>.
 *
 * Usage: java bench/claim/PgbenchScript.java fresh|duplicate DUP_KEYS
 */
class PgbenchScript {

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        int dupKeys = Integer.parseInt(args[1]);
        String source = Files.readString(Path.of(
                "backend/src/main/java/dev/opledger/claim/internal/ClaimStatement.java"));
        int start = source.indexOf("String SQL = \"\"\"") ;
        int end = source.indexOf("\"\"\";", start);
        String sql = source.substring(source.indexOf('\n', start) + 1, end).stripIndent().translateEscapes();
        String operationId = mode.equals("fresh")
                ? "gen_random_uuid()"
                : "('00000000-0000-4000-8000-' || lpad(:i::text, 12, '0'))";
        // the attempt carries no App Attest key or counter here, as with opledger.attest.mode=off; the
        // trace context is a traceparent, as the node stores for every request (sampled or not)
        String[] bindings = {":subject", operationId, ":hash", ":type", ":command", "gen_random_uuid()", ":agent",
            ":address", "NULL", "NULL", "'REST'", "'00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00'"};
        var script = new StringBuilder();
        int next = 0;
        for (char c : sql.toCharArray()) {
            if (c == '?') {
                script.append(bindings[next++]);
            } else {
                script.append(c == '\n' ? ' ' : c); // pgbench: one SQL command per line
            }
        }
        if (next != bindings.length) {
            throw new IllegalStateException("the claim statement has " + next + " parameters, expected " + bindings.length);
        }
        if (mode.equals("duplicate")) {
            System.out.println("\\set i random(1, " + dupKeys + ")");
        }
        System.out.println(script.toString().replaceAll(" +", " ").strip() + ";");
    }
}
