package dev.opledger.api;

import java.nio.charset.StandardCharsets;
import javax.crypto.spec.SecretKeySpec;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.security.oauth2.jose.jws.MacAlgorithm;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;

/**
 * In the local and test profiles the API accepts HS256 tokens signed with
 * {@code opledger.local.jwt-secret}, so any JWT tool can mint one. Other profiles point Spring
 * Security at an issuer or JWK set ({@code spring.security.oauth2.resourceserver.jwt.*}).
 */
@Configuration(proxyBeanMethods = false)
@Profile({"local", "test"})
class LocalTokenConfiguration {

    /** HS256 needs a key of at least 256 bits. */
    static final int MIN_SECRET_BYTES = 32;

    @Bean
    JwtDecoder localJwtDecoder(@Value("${opledger.local.jwt-secret}") String secret) {
        byte[] key = secret.getBytes(StandardCharsets.UTF_8);
        if (key.length < MIN_SECRET_BYTES) {
            throw new IllegalStateException("opledger.local.jwt-secret must be at least " + MIN_SECRET_BYTES
                    + " bytes for HS256");
        }
        return NimbusJwtDecoder.withSecretKey(new SecretKeySpec(key, "HmacSHA256"))
                .macAlgorithm(MacAlgorithm.HS256)
                .build();
    }
}
