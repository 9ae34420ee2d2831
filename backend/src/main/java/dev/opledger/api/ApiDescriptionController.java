package dev.opledger.api;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.springframework.core.io.ClassPathResource;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /v1/openapi.yaml}: the OpenAPI 3.1 description of {@code /v1}, to anyone (it
 * describes only the app-facing API, nothing of the console or the actuator). Hand-maintained in
 * {@code resources/openapi/v1.yaml} rather than generated: most of what a client meets (the
 * problems of the firewall, the token check, the body reader, {@code Prefer: wait}) is answered
 * outside the controllers a generator reads; {@code OpenApiContractIT} holds the file to what
 * the endpoints really answer.
 */
@RestController
class ApiDescriptionController {

    static final String PATH = "/v1/openapi.yaml";
    private static final MediaType YAML = MediaType.parseMediaType("application/yaml");

    private final byte[] document;

    ApiDescriptionController() {
        try (InputStream in = new ClassPathResource("openapi/v1.yaml").getInputStream()) {
            this.document = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("the API description openapi/v1.yaml is missing", e);
        }
    }

    @GetMapping(PATH)
    ResponseEntity<byte[]> document() {
        return ResponseEntity.ok().contentType(YAML).cacheControl(CacheControl.noCache()).body(document);
    }
}
