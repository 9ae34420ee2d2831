package dev.opledger.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ApiPathsTest {

    @ParameterizedTest
    @ValueSource(strings = {"/v1", "/v1/", "/v1/operations", "//v1/operations", "///v1//x", "/v1;x=1/operations",
        "/v1?x", "/v1/%00", ""})
    void takesTheseForTheApis(String uri) {
        assertThat(ApiPaths.isApi(uri)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"/", "/v10", "/v1x/operations", "/V1/operations", "/ledger", "/%00", "/login", "/x/v1"})
    void leavesTheseToTheConsole(String uri) {
        assertThat(ApiPaths.isApi(uri)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"*", "v1/operations"})
    void takesARequestTargetThatIsNoPathForTheApis(String uri) {
        assertThat(ApiPaths.isApi(uri)).isTrue();
    }
}
