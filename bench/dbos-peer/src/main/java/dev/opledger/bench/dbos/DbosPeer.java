package dev.opledger.bench.dbos;

import dev.dbos.transact.DBOS;
import dev.dbos.transact.config.DBOSConfig;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code serve --port P --tools URL --db JDBC_URL [--db-user U]}: the DBOS peer (its system
 * database, the checkout workflow, the HTTP front) until killed.
 * {@code load --server URL [--clients 16] [--warmup 20] [--duration 20] [--hold]}: the closed loop
 * against it.
 * {@code warm-tools --tools URL [--checkouts 6000] [--clients 4]}: the checkout's three tool calls
 * straight to reference-tools, that many times (fresh operation ids), then exits: the tool server's
 * JIT warm-up before anything is measured (see {@link ToolsWarmup}).
 */
public final class DbosPeer {

    private DbosPeer() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0 || !(args[0].equals("serve") || args[0].equals("load") || args[0].equals("warm-tools"))) {
            System.err.println("usage: serve --port P --tools URL --db JDBC_URL [--db-user U] | "
                    + "load --server URL [--clients N] [--warmup S] [--duration S] [--hold] | "
                    + "warm-tools --tools URL [--checkouts N] [--clients N]");
            System.exit(2);
        }
        Map<String, String> options = options(args);
        if (args[0].equals("load")) {
            var load = new ClosedLoad(URI.create(required(options, "server")),
                    Integer.parseInt(options.getOrDefault("clients", "16")));
            System.exit(load.run(Duration.ofSeconds(Long.parseLong(options.getOrDefault("warmup", "20"))),
                    Duration.ofSeconds(Long.parseLong(options.getOrDefault("duration", "20"))), options.containsKey("hold")));
        }
        if (args[0].equals("warm-tools")) {
            var warmup = new ToolsWarmup(new ReferenceTools(URI.create(required(options, "tools"))));
            warmup.run(Integer.parseInt(options.getOrDefault("checkouts", "6000")),
                    Integer.parseInt(options.getOrDefault("clients", "4")));
            System.exit(0);
        }
        serve(options);
    }

    private static void serve(Map<String, String> options) throws Exception {
        DBOSConfig config = DBOSConfig.defaults("opledger-dbos-peer")
                .withDatabaseUrl(required(options, "db"))
                .withDbUser(options.getOrDefault("db-user", "postgres"))
                .withDbPassword(System.getenv().getOrDefault("PGPASSWORD", ""))
                .disableAdminServer();
        var dbos = new DBOS(config);
        var tools = new ReferenceTools(URI.create(required(options, "tools")));
        Checkout checkout = dbos.registerProxy(Checkout.class, new CheckoutWorkflow(dbos, tools));
        dbos.launch();
        var front = new CheckoutFront(dbos, checkout, options.getOrDefault("host", "127.0.0.1"),
                Integer.parseInt(required(options, "port")));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            front.close();
            dbos.shutdown();
        }));
        System.out.println("READY");
        Thread.currentThread().join();
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (int i = 1; i < args.length; i++) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("not an option: " + args[i]);
            }
            String name = args[i].substring(2);
            boolean flag = i + 1 == args.length || args[i + 1].startsWith("--");
            options.put(name, flag ? "true" : args[++i]);
        }
        return options;
    }

    private static String required(Map<String, String> options, String name) {
        String value = options.get(name);
        if (value == null) {
            throw new IllegalArgumentException("--" + name + " is required");
        }
        return value;
    }
}
