package dev.opledger.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.server.resource.web.DefaultBearerTokenResolver;

/** The loop decides every Authorization header exactly as Spring Security's default resolver. */
class HeaderBearerTokenResolverTest {

    static List<String> headers() {
        List<String> headers = new ArrayList<>(List.of("Bearer abc.def-ghi_jkl~mno+pqr/stu==", "bearer abc", "BEARER abc",
                "Bearer", "Bearer ", "Bearer  abc", "Bearer abc def", "Bearer ===", "Bearer abc=def", "Bearer abc=",
                "Bearerabc", "Basic dXNlcjpwYXNz", "Bear abc", "", " Bearer abc", "Bearer abc ", "Bearer ab\tc",
                "Bearer é", "Bearer a%b", "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl", "Token abc"));
        var random = new Random(8785);
        String alphabet = "aZ09-._~+/= %$\"é\t,;Bb";
        for (int i = 0; i < 500; i++) {
            var token = new StringBuilder(random.nextBoolean() ? "Bearer " : "bearer");
            for (int n = random.nextInt(12); n > 0; n--) {
                token.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            headers.add(token.toString());
        }
        return headers;
    }

    @ParameterizedTest
    @MethodSource("headers")
    void resolvesLikeSpringSecuritysDefault(String header) {
        var request = new MockHttpServletRequest();
        request.addHeader("Authorization", header);

        Object expected = outcome(() -> new DefaultBearerTokenResolver().resolve(request));
        Object actual = outcome(() -> new HeaderBearerTokenResolver().resolve(request));

        assertThat(actual).isEqualTo(expected);
    }

    // Issue 8: with two headers the default read the first, so the credential depended on header order.
    @ParameterizedTest
    @ValueSource(strings = {"Bearer abc", "Basic dXNlcjpwYXNz", ""})
    void refusesTwoAuthorizationHeaders(String second) {
        var request = new MockHttpServletRequest();
        request.addHeader("Authorization", "Bearer abc");
        request.addHeader("Authorization", second);

        assertThat(catchThrowable(() -> new HeaderBearerTokenResolver().resolve(request)))
                .isInstanceOf(OAuth2AuthenticationException.class).hasMessageContaining("exactly one");
    }

    private static Object outcome(java.util.function.Supplier<String> resolve) {
        Throwable failure = catchThrowable(resolve::get);
        return failure != null ? failure.getClass().getName() + ": " + failure.getMessage() : String.valueOf(resolve.get());
    }
}
