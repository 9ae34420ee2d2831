package dev.opledger.graph.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.BeanCreationException;

class InvalidOperationTypeFailureAnalyzerTest {

    @Test
    void describesTheTypeThatStoppedTheStart() {
        var failure = new BeanCreationException("operationTypes", "failed",
                new InvalidOperationTypeException("operation type \"t\": arguments schema x.json is not on the classpath"));

        var analysis = new InvalidOperationTypeFailureAnalyzer().analyze(failure);

        assertThat(analysis.getDescription())
                .isEqualTo("operation type \"t\": arguments schema x.json is not on the classpath");
        assertThat(analysis.getAction()).contains("JSON Schema 2020-12");
    }
}
