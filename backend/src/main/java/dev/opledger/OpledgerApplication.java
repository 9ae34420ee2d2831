package dev.opledger;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * A full opledger node. The top-level packages below this one are the stages of the path
 * (see ARCHITECTURE.md); their boundaries are verified by {@code ModularityTests}.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class OpledgerApplication {

    public static void main(String[] args) {
        SpringApplication.run(OpledgerApplication.class, args);
    }
}
