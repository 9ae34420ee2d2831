package dev.opledger.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.AbstractBindHandler;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.handler.IgnoreTopLevelConverterNotFoundBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Profiles;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.FileSystemResource;
import org.springframework.core.type.filter.AnnotationTypeFilter;
import org.yaml.snakeyaml.Yaml;

/**
 * docker/compose.yaml and docker/Dockerfile checked for what a person gets wrong when editing them:
 * no Docker engine can run them here, so the compose file's environment is resolved the way Spring
 * Boot resolves it (relaxed binding of environment variables, the node's application.yaml and
 * reference-tools.yaml), and a renamed property, a port that does not match, a missing health
 * check or a secret written into the files fails this test.
 */
class DockerDeploymentTest {

    private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();
    private static final Path DOCKER = REPOSITORY.resolve("docker");
    private static final List<String> NODES = List.of("node-1", "node-2");

    /** What a user writes into docker/.env: test values, none of them a real secret. */
    private static final Map<String, String> DOT_ENV = Map.of(
            "POSTGRES_PASSWORD", "compose-test-password",
            "OPLEDGER_JWT_ISSUER_URI", "https://issuer.example.com/realms/opledger",
            "OPLEDGER_ATTEST_APPS", "ABCDE12345.com.example.app,ABCDE12345.com.example.other",
            "OPLEDGER_ADMIN_PASSWORD_HASH", "{bcrypt}$2a$10$" + "a".repeat(53));

    /** Names the node reads itself rather than through a property (DatabaseEnvironmentPostProcessor). */
    private static final Path DATABASE_POST_PROCESSOR = REPOSITORY.resolve(
            "backend/src/main/java/dev/opledger/node/database/DatabaseEnvironmentPostProcessor.java");

    /** Spring Boot's own properties the compose file sets for a node, read by Spring Boot itself. */
    private static final Map<String, Bindable<?>> SPRING_PROPERTIES = Map.of(
            "spring.profiles.active", Bindable.listOf(String.class),
            "spring.kafka.bootstrap-servers", Bindable.listOf(String.class));

    /** opledger.console.users as name-value pairs: the record is the node's own business. */
    private static final Bindable<List<Map<String, String>>> CONSOLE_USERS = Bindable.of(ResolvableType.forClassWithGenerics(
            List.class, ResolvableType.forClassWithGenerics(Map.class, String.class, String.class)));

    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?}");
    private static final Pattern SECRET_NAME = Pattern.compile(".*(PASSWORD|SECRET|TOKEN|HASH|PRIVATE|CREDENTIAL).*");

    private final Map<String, Object> compose = load(DOCKER.resolve("compose.yaml"));
    private final List<String> dockerfile = lines(DOCKER.resolve("Dockerfile"));

    @Test
    void everyServiceHasAHealthCheckAndWaitsForTheHealthOfWhatItDependsOn() {
        Map<String, Map<String, Object>> services = services();
        assertThat(services).containsKeys("node-1", "node-2", "postgres", "kafka", "reference-tools");
        services.forEach((name, service) -> {
            assertThat(hasHealthCheck(service)).as("%s has a health check (compose or its Dockerfile stage)", name).isTrue();
            dependsOn(service).forEach((dependency, condition) -> {
                assertThat(services).as("%s depends on an existing service", name).containsKey(dependency);
                assertThat(condition).as("%s waits for %s to be healthy, not only started", name, dependency)
                        .isEqualTo("service_healthy");
            });
        });
        for (String node : NODES) {
            Map<String, String> environment = environment(node);
            Set<String> needed = Set.of(host(environment.get("OPLEDGER_DB_URL").substring("jdbc:".length())),
                    host(environment.get("SPRING_KAFKA_BOOTSTRAP_SERVERS")),
                    host(environment.get("OPLEDGER_MCP_SERVERS_REFERENCE_URL")));
            assertThat(dependsOn(services.get(node)).keySet()).as("%s waits for every service it connects to", node)
                    .containsAll(needed);
        }
        assertThat(dependsOn(services.get("reference-tools")).keySet()).contains("postgres");
    }

    @Test
    void theNodesHealthCheckAsksTheReadinessProbeOnThePortTheNodeListensOn() {
        List<String> node = stage("node");
        String healthCheck = node.stream().filter(line -> line.startsWith("HEALTHCHECK")).findFirst().orElse("");
        Matcher command = Pattern.compile("CMD \\[\"http-check\", \"(\\d+)\", \"([^\"]+)\"]").matcher(healthCheck);
        assertThat(command.find()).as("the node stage's HEALTHCHECK runs http-check: %s", healthCheck).isTrue();

        StandardEnvironment environment = nodeEnvironment("node-1");
        String port = environment.getProperty("server.port");
        assertThat(command.group(1)).as("the health check's port is server.port").isEqualTo(port);
        assertThat(command.group(2)).isEqualTo("/actuator/health/readiness");
        assertThat(environment.getProperty("management.endpoint.health.probes.enabled")).isEqualTo("true");
        assertThat(environment.getProperty("management.server.port")).as("actuator on the node's own port").isNull();
        assertThat(node).contains("EXPOSE " + port);
        for (String name : NODES) {
            assertThat(ports(services().get(name))).as("%s publishes the node's port", name)
                    .allSatisfy(mapping -> assertThat(mapping).endsWith(":" + nodeEnvironment(name).getProperty("server.port")));
        }
    }

    @Test
    void theNodeRunsAsInProductionWithEverySettingItRequires() {
        for (String name : NODES) {
            StandardEnvironment environment = nodeEnvironment(name);
            assertThat(environment.getActiveProfiles()).as("%s runs without the local and test profiles", name)
                    .isNotEmpty().doesNotContain("local", "test");
            // the API refuses to start without an issuer; a renamed placeholder leaves this empty
            assertThat(environment.getProperty("spring.security.oauth2.resourceserver.jwt.issuer-uri"))
                    .isEqualTo(DOT_ENV.get("OPLEDGER_JWT_ISSUER_URI"));
            Binder binder = Binder.get(environment);
            assertThat(binder.bind("opledger.attest.apps", Bindable.listOf(String.class)).orElse(List.of()))
                    .as("the apps whose App Attest keys are accepted")
                    .containsExactly("ABCDE12345.com.example.app", "ABCDE12345.com.example.other");
            assertThat(environment.getProperty("opledger.attest.mode")).isEqualTo("required");
            assertThat(environment.getProperty("opledger.attest.allow-insecure")).isNull();
            List<Map<String, String>> users = binder.bind("opledger.console.users", CONSOLE_USERS).orElse(List.of());
            assertThat(users).as("an administrator can sign in to the console").anySatisfy(user -> {
                assertThat(user.get("roles")).isEqualTo("ADMIN");
                assertThat(user.get("password")).isEqualTo(DOT_ENV.get("OPLEDGER_ADMIN_PASSWORD_HASH"));
            });

            Map<String, String> variables = environment(name);
            URI database = URI.create(variables.get("OPLEDGER_DB_URL").substring("jdbc:".length()));
            Map<String, String> postgres = environment("postgres");
            assertThat(database.getHost()).isEqualTo("postgres");
            assertThat(database.getPort()).isEqualTo(5432);
            assertThat(database.getPath()).isEqualTo("/" + postgres.get("POSTGRES_DB"));
            assertThat(variables.get("OPLEDGER_DB_USER")).isEqualTo(postgres.get("POSTGRES_USER"));
            assertThat(variables.get("OPLEDGER_DB_PASSWORD")).isEqualTo(postgres.get("POSTGRES_PASSWORD"));

            Map<String, String> kafka = environment("kafka");
            List<String> servers = binder.bind("spring.kafka.bootstrap-servers", Bindable.listOf(String.class)).orElse(List.of());
            assertThat(servers).as("the node publishes to the compose file's broker").hasSize(1);
            String bootstrap = servers.getFirst();
            assertThat(kafka.get("KAFKA_ADVERTISED_LISTENERS")).as("Kafka advertises the address the node dials")
                    .isEqualTo("PLAINTEXT://" + bootstrap);
            assertThat(kafka.get("KAFKA_LISTENERS")).contains("PLAINTEXT://:" + port(bootstrap));
            assertThat(kafka.get("KAFKA_PROCESS_ROLES")).as("KRaft, no ZooKeeper").isEqualTo("broker,controller");

            String checkoutServer = environment.getProperty("opledger.checkout.mcp-server");
            URI tools = URI.create(environment.getProperty("opledger.mcp.servers." + checkoutServer + ".url"));
            StandardEnvironment referenceTools = referenceToolsEnvironment();
            assertThat(tools.getHost()).isEqualTo("reference-tools");
            assertThat(String.valueOf(tools.getPort())).as("the node dials the port reference-tools listens on")
                    .isEqualTo(referenceTools.getProperty("server.port"));
            assertThat(tools.getPath()).isEqualTo("/mcp");
        }
    }

    @Test
    void dockerWaitsForTheNodesGracefulShutdownBeforeKillingIt() {
        for (String name : NODES) {
            StandardEnvironment environment = nodeEnvironment(name);
            assertThat(environment.getProperty("server.shutdown")).isEqualTo("graceful");
            Duration phase = Binder.get(environment).bind("spring.lifecycle.timeout-per-shutdown-phase", Duration.class)
                    .orElse(Duration.ofSeconds(30)); // Spring Boot's default
            Object grace = services().get(name).get("stop_grace_period");
            assertThat(grace).as("%s sets stop_grace_period (Docker's default is 10s)", name).isNotNull();
            assertThat(Duration.parse("PT" + grace.toString().toUpperCase(Locale.ROOT))).isGreaterThan(phase);
        }
    }

    @Test
    void referenceToolsListensOnEveryInterfaceOnItsDatabase() {
        StandardEnvironment tools = referenceToolsEnvironment();
        assertThat(tools.getProperty("server.address")).as("the default 127.0.0.1 is unreachable from the nodes")
                .isEqualTo("0.0.0.0");
        assertThat(tools.getProperty("spring.datasource.url")).isEqualTo(nodeEnvironment("node-1").getProperty("OPLEDGER_DB_URL"));
        assertThat(tools.getProperty("spring.datasource.password")).isEqualTo(DOT_ENV.get("POSTGRES_PASSWORD"));
        Map<String, Object> healthCheck = map(services().get("reference-tools").get("healthcheck"));
        assertThat(healthCheck.get("test")).isEqualTo(List.of("CMD", "http-check", tools.getProperty("server.port"), "/mcp", "any"));
        assertThat(stage("reference-tools")).contains("EXPOSE " + tools.getProperty("server.port"));
    }

    /** Every variable compose gives a node is read by it: a renamed property fails here, not silently in production. */
    @Test
    void everyVariableGivenToANodeIsOneTheNodeReads() throws IOException {
        String applicationYaml = Files.readString(REPOSITORY.resolve("backend/src/main/resources/application.yaml"));
        String postProcessor = Files.readString(DATABASE_POST_PROCESSOR);
        for (String name : NODES) {
            StandardEnvironment environment = nodeEnvironment(name);
            Set<ConfigurationPropertyName> bound = bindEveryOpledgerProperty(environment);
            Set<String> unread = new TreeSet<>();
            environment(name).forEach((variable, value) -> {
                boolean read = applicationYaml.contains("${" + variable + ":")
                        || postProcessor.contains("\"" + variable + "\"")
                        || readsAny(variable, value, bound);
                if (!read) {
                    unread.add(variable);
                }
            });
            assertThat(unread).as("variables of %s that no property, placeholder or the database locator reads", name).isEmpty();
        }
    }

    @Test
    void theFilesHoldNoSecretsOnlyReferencesToTheUsersEnvironment() throws IOException {
        services().forEach((service, definition) -> environment(service, false).forEach((variable, value) -> {
            if (SECRET_NAME.matcher(variable).matches()) {
                assertThat(value).as("%s of %s comes from the environment, with no default", variable, service)
                        .matches("\\$\\{[A-Z_]+(:\\?[^}]*)?}");
            }
        }));
        try (Stream<Path> files = Files.list(DOCKER)) {
            for (Path file : files.toList()) {
                String text = Files.readString(file);
                assertThat(text).as(file.getFileName().toString())
                        .doesNotContain("PRIVATE KEY")
                        .doesNotContainPattern("\\$2[aby]?\\$\\d\\d\\$[./A-Za-z0-9]{53}") // a bcrypt hash
                        .doesNotContainPattern("eyJ[\\w-]+\\.eyJ[\\w-]+"); // a JWT
            }
        }
        Properties example = dotEnvExample();
        Set<String> referenced = referencedVariables();
        assertThat(example.stringPropertyNames()).as("docker/.env.example names every variable compose.yaml reads")
                .containsAll(referenced);
        example.forEach((variable, value) -> {
            if (SECRET_NAME.matcher((String) variable).matches()) {
                assertThat((String) value).as("%s is left for the user to fill in", variable).isEmpty();
            }
        });
        assertThat(DOT_ENV.keySet()).as("the variables compose requires (:?) are the ones this test fills in")
                .containsExactlyInAnyOrderElementsOf(requiredVariables());
        assertThat(lines(REPOSITORY.resolve(".gitignore"))).as("the user's docker/.env is never committed").contains("docker/.env");
    }

    @Test
    void theImageIsLayeredRunsAsAnotherUserThanRootAndBuildsFromWhatTheBuildContextLetsIn() {
        List<String> stages = new ArrayList<>();
        for (String from : dockerfile.stream().filter(line -> line.startsWith("FROM ")).toList()) {
            String image = from.split("\\s+")[1];
            assertThat(image).as("every stage runs on the JDK 25 JRE").isIn(Stream.concat(Stream.of("eclipse-temurin:25-jre"),
                    stages.stream()).toList());
            stages.add(from.replaceFirst(".* AS ", ""));
        }
        String user = stage("base").stream().filter(line -> line.startsWith("USER ")).findFirst()
                .orElseThrow(() -> new AssertionError("the base stage sets a USER"));
        assertThat(user).doesNotMatch("USER (0|root)(:.*)?");
        for (String target : List.of("node", "reference-tools")) {
            assertThat(fromOf(target)).as("%s runs on the base stage, as its user", target).isEqualTo("base");
            List<String> layers = stage(target).stream().filter(line -> line.startsWith("COPY --from=layers"))
                    .map(line -> line.replaceAll(".*/extracted/([a-z-]+)/.*", "$1")).toList();
            assertThat(layers).as("%s copies Spring Boot's layers, least changing first", target)
                    .containsExactly("dependencies", "spring-boot-loader", "snapshot-dependencies", "application");
        }
        List<String> ignore = lines(DOCKER.resolve("Dockerfile.dockerignore"));
        dockerfile.stream().filter(line -> line.startsWith("COPY ") && !line.contains("--from="))
                .map(line -> line.split("\\s+")[line.split("\\s+").length - 2])
                .forEach(source -> assertThat(ignore).as("the build context lets %s in", source).contains("!" + source));
        assertThat(DOCKER.resolve("http-check")).isExecutable();
        services().forEach((name, service) -> {
            if (service.get("build") != null) {
                Map<String, Object> build = map(service.get("build"));
                assertThat(DOCKER.resolve((String) build.get("context")).normalize()).isEqualTo(REPOSITORY);
                assertThat(build.get("dockerfile")).isEqualTo("docker/Dockerfile");
                assertThat(dockerfile).as("%s builds an existing stage", name).anyMatch(line -> line.endsWith(" AS " + build.get("target")));
            }
        });
    }

    // --- the node's and reference-tools' view of the compose file ---

    private StandardEnvironment nodeEnvironment(String service) {
        return springEnvironment(environment(service), REPOSITORY.resolve("backend/src/main/resources/application.yaml"));
    }

    private StandardEnvironment referenceToolsEnvironment() {
        return springEnvironment(environment("reference-tools"),
                REPOSITORY.resolve("reference-tools/src/main/resources/reference-tools.yaml"));
    }

    /** As Spring Boot would see it: the variables first, then the configuration file's documents that are active. */
    private static StandardEnvironment springEnvironment(Map<String, String> variables, Path configuration) {
        var environment = new StandardEnvironment();
        environment.getPropertySources().remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
        environment.getPropertySources().remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
        environment.getPropertySources().addLast(new SystemEnvironmentPropertySource(
                // the name decides that Spring Boot maps the names as environment variables
                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                new LinkedHashMap<>(variables)));
        String profiles = environment.getProperty("spring.profiles.active", "");
        environment.setActiveProfiles(profiles.isBlank() ? new String[0] : profiles.split(","));
        try {
            for (PropertySource<?> document : new YamlPropertySourceLoader().load(configuration.toString(),
                    new FileSystemResource(configuration))) {
                Object activation = document.getProperty("spring.config.activate.on-profile");
                if (activation == null || environment.acceptsProfiles(Profiles.of(activation.toString()))) {
                    environment.getPropertySources().addLast(document);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return environment;
    }

    /**
     * Binds every {@code opledger.*} properties class (so a value that would stop the node fails here
     * too) and the Spring Boot properties the compose file sets; answers the names bound.
     */
    private static Set<ConfigurationPropertyName> bindEveryOpledgerProperty(StandardEnvironment environment) {
        Set<ConfigurationPropertyName> bound = new HashSet<>();
        var recording = new AbstractBindHandler(new IgnoreTopLevelConverterNotFoundBindHandler()) {
            @Override
            public Object onSuccess(ConfigurationPropertyName name, Bindable<?> target, BindContext context, Object result) {
                bound.add(name);
                return super.onSuccess(name, target, context, result);
            }
        };
        var scanner = new ClassPathScanningCandidateComponentProvider(false);
        scanner.addIncludeFilter(new AnnotationTypeFilter(ConfigurationProperties.class));
        Binder binder = Binder.get(environment);
        for (var candidate : scanner.findCandidateComponents("dev.opledger")) {
            try {
                Class<?> type = Class.forName(candidate.getBeanClassName());
                String prefix = type.getAnnotation(ConfigurationProperties.class).value();
                binder.bindOrCreate(prefix, Bindable.of(type), recording);
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            } catch (RuntimeException e) {
                fail("the node would not start: " + e.getMessage(), e);
            }
        }
        SPRING_PROPERTIES.forEach((name, type) -> binder.bind(name, type, recording));
        return bound;
    }

    /** Whether Spring Boot's relaxed binding finds the variable under one of the bound property names. */
    private static boolean readsAny(String variable, String value, Set<ConfigurationPropertyName> bound) {
        var source = ConfigurationPropertySource.from(new SystemEnvironmentPropertySource(
                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, Map.of(variable, value)));
        return bound.stream().anyMatch(property -> source.getConfigurationProperty(property) != null);
    }

    // --- reading compose.yaml and the Dockerfile ---

    private Map<String, Map<String, Object>> services() {
        Map<String, Map<String, Object>> services = new LinkedHashMap<>();
        map(compose.get("services")).forEach((name, service) -> services.put(name, map(service)));
        return services;
    }

    private Map<String, String> environment(String service) {
        return environment(service, true);
    }

    /** A service's environment, with the user's .env substituted (interpolated) or as written. */
    private Map<String, String> environment(String service, boolean interpolated) {
        Map<String, String> environment = new LinkedHashMap<>();
        Object written = services().get(service).get("environment");
        if (written != null) {
            map(written).forEach((name, value) -> environment.put(name,
                    interpolated ? interpolate(String.valueOf(value)) : String.valueOf(value)));
        }
        return environment;
    }

    private static String interpolate(String value) {
        Matcher variable = VARIABLE.matcher(value);
        StringBuilder result = new StringBuilder();
        while (variable.find()) {
            String given = DOT_ENV.get(variable.group(1));
            String operator = variable.group(2);
            String replacement;
            if (given != null && !given.isEmpty()) {
                replacement = given;
            } else if (operator != null && operator.endsWith("-")) {
                replacement = variable.group(3);
            } else {
                throw new AssertionError("compose would stop or substitute nothing: " + variable.group());
            }
            variable.appendReplacement(result, Matcher.quoteReplacement(replacement));
        }
        return variable.appendTail(result).toString();
    }

    private static Set<String> referencedVariables() {
        return variables().map(variable -> variable.group(1)).collect(Collectors.toCollection(TreeSet::new));
    }

    private static Set<String> requiredVariables() {
        return variables().filter(variable -> ":?".equals(variable.group(2))).map(variable -> variable.group(1))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** Every ${VAR…} reference compose.yaml makes, comments included. */
    private static Stream<MatchResult> variables() {
        try {
            return VARIABLE.matcher(Files.readString(DOCKER.resolve("compose.yaml"))).results();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private boolean hasHealthCheck(Map<String, Object> service) {
        if (service.get("healthcheck") != null) {
            return true;
        }
        Object build = service.get("build");
        return build != null && stage((String) map(build).get("target")).stream().anyMatch(line -> line.startsWith("HEALTHCHECK"));
    }

    private static Map<String, String> dependsOn(Map<String, Object> service) {
        Map<String, String> conditions = new LinkedHashMap<>();
        Object dependsOn = service.get("depends_on");
        if (dependsOn instanceof List<?> list) {
            list.forEach(name -> conditions.put((String) name, "service_started"));
        } else if (dependsOn != null) {
            map(dependsOn).forEach((name, condition) -> conditions.put(name, (String) map(condition).get("condition")));
        }
        return conditions;
    }

    private static List<String> ports(Map<String, Object> service) {
        Object ports = service.get("ports");
        return ports == null ? List.of() : ((List<?>) ports).stream().map(String::valueOf).toList();
    }

    /** The lines of one stage of the Dockerfile, continuation lines joined. */
    private List<String> stage(String name) {
        List<String> stage = new ArrayList<>();
        boolean inside = false;
        for (String line : dockerfile) {
            if (line.startsWith("FROM ")) {
                inside = line.endsWith(" AS " + name);
            }
            if (inside) {
                stage.add(line);
            }
        }
        assertThat(stage).as("the Dockerfile has a stage %s", name).isNotEmpty();
        return stage;
    }

    private String fromOf(String stage) {
        return stage(stage).getFirst().split("\\s+")[1];
    }

    private static String host(String address) {
        String withoutScheme = address.replaceFirst("^[a-z]+://", "");
        return withoutScheme.split("[:/]")[0];
    }

    private static int port(String address) {
        return Integer.parseInt(address.replaceFirst("^[a-z]+://", "").split("[:/]")[1]);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }

    private static Map<String, Object> load(Path file) {
        try (var reader = Files.newBufferedReader(file)) {
            return new Yaml().load(reader);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Properties dotEnvExample() throws IOException {
        var properties = new Properties();
        try (var reader = Files.newBufferedReader(DOCKER.resolve(".env.example"))) {
            properties.load(reader);
        }
        return properties;
    }

    /** The file's lines without comments, each instruction's continuation lines joined to it. */
    private static List<String> lines(Path file) {
        try {
            String text = Files.readString(file).replaceAll("\\\\\\n\\s*", "");
            return text.lines().map(String::strip).filter(line -> !line.isEmpty() && !line.startsWith("#")).toList();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
