package dev.opledger.api;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Settings of the app-facing API ({@code opledger.api}).
 *
 * @param maxBodySize the largest command body accepted; larger ones get 413
 * @param maxWait the longest {@code Prefer: wait} a request is held for; a longer one waits this long
 * @param directRoutes whether a submission and a status read are answered
 *     without Spring MVC's dispatch ({@link DirectOperationRoutes}); the same answers either way
 */
@ConfigurationProperties("opledger.api")
record ApiProperties(@DefaultValue("64KB") DataSize maxBodySize, @DefaultValue("30s") Duration maxWait,
        @DefaultValue("true") boolean directRoutes) {

    ApiProperties {
        if (maxBodySize.toBytes() < 1 || maxBodySize.toBytes() > Integer.MAX_VALUE - 1) {
            throw new IllegalArgumentException("opledger.api.max-body-size must be between 1 byte and 2 GB");
        }
        if (maxWait.isNegative() || maxWait.compareTo(Duration.ofMinutes(5)) > 0) {
            throw new IllegalArgumentException("opledger.api.max-wait must be between 0 and 5 minutes");
        }
    }
}
