package dev.opledger.node.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class HttpFirewallConfigurationTest {

    /** StrictHttpFirewall's own expression, which the loop replaces. */
    private static final Pattern SPRING_SECURITY_DEFAULT = Pattern.compile("[\\p{IsAssigned}&&[^\\p{IsControl}]]*");

    @Test
    void decidesEveryCodePointAsSpringSecuritysExpressionDoes() {
        for (int codePoint = 0; codePoint <= Character.MAX_CODE_POINT; codePoint++) {
            String value = "a" + Character.toString(codePoint) + "b";
            assertThat(HttpFirewallConfiguration.assignedAndNotControl(value))
                    .as("U+%04X", codePoint)
                    .isEqualTo(SPRING_SECURITY_DEFAULT.matcher(value).matches());
        }
    }

    @Test
    void decidesLoneSurrogatesAndEmptyValuesAlike() {
        for (String value : new String[] {"", "\uD800", "x\uDC00", "\uD83D\uDE00", "tab\there", "nul\u0000"}) {
            assertThat(HttpFirewallConfiguration.assignedAndNotControl(value)).as(value)
                    .isEqualTo(SPRING_SECURITY_DEFAULT.matcher(value).matches());
        }
    }

    @Test
    void allowsTabsInHeaderValuesButNoOtherControlCharacter() {
        assertThat(HttpFirewallConfiguration.fieldValue("Bearer\tabc.def.ghi")).isTrue();
        assertThat(HttpFirewallConfiguration.fieldValue("\t")).isTrue();
        for (String value : new String[] {"a\u0000b", "a\rb", "a\nb", "a\u007Fb", "a\u0085b", "\t\u0001"}) {
            assertThat(HttpFirewallConfiguration.fieldValue(value)).as(value).isFalse();
        }
    }
}
