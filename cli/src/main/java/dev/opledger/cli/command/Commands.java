package dev.opledger.cli.command;

import java.lang.reflect.Constructor;
import picocli.CommandLine;

/** The command line with its commands built for a {@link CliContext}. */
public final class Commands {

    private Commands() {
    }

    public static CommandLine commandLine(CliContext context) {
        return new CommandLine(new RootCommand(), new ContextFactory(context))
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setExecutionExceptionHandler(new FailureHandler());
    }

    /** Gives the context to commands whose constructor takes it; the rest are made as picocli makes them. */
    private record ContextFactory(CliContext context) implements CommandLine.IFactory {

        @Override
        public <K> K create(Class<K> type) throws Exception {
            for (Constructor<?> constructor : type.getDeclaredConstructors()) {
                if (constructor.getParameterCount() == 1 && constructor.getParameterTypes()[0] == CliContext.class) {
                    constructor.setAccessible(true);
                    return type.cast(constructor.newInstance(context));
                }
            }
            return CommandLine.defaultFactory().create(type);
        }
    }
}
