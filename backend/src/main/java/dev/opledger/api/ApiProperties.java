package dev.opledger.api;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Settings of the app-facing API ({@code opledger.api}).
 *
 * @param maxBodySize the largest command body accepted; larger ones get 413
 */
@ConfigurationProperties("opledger.api")
record ApiProperties(@DefaultValue("64KB") DataSize maxBodySize) {

    ApiProperties {
        if (maxBodySize.toBytes() < 1 || maxBodySize.toBytes() > Integer.MAX_VALUE - 1) {
            throw new IllegalArgumentException("opledger.api.max-body-size must be between 1 byte and 2 GB");
        }
    }
}
