package dev.opledger.tools.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FaultsTest {

    private static Faults configured(Map<String, String> faults) {
        return new Faults(new FaultProperties(faults), new EnvironmentFaultProperties(Map.of()));
    }

    @Test
    void configuredFaultsApplyToEveryCallOfTheirTool() {
        var faults = configured(Map.of("capture_payment", "delay:250, drop-response"));

        assertThat(faults.planFor("capture_payment", null))
                .isEqualTo(new FaultPlan(Duration.ofMillis(250), false, true));
        assertThat(faults.planFor("capture_payment", null).dropResponse()).isTrue();
        assertThat(faults.planFor("send_message", null)).isEqualTo(FaultPlan.NONE);
    }

    @Test
    void keysMatchAsRelaxedBindingLeavesThem() {
        // reference-tools.faults.send_message binds as "sendmessage";
        // REFERENCE_TOOLS_FAULTS_ADJUST_POINTS (EnvironmentFaultProperties) as "adjust.points"
        var faults = configured(Map.of("sendmessage", "fail", "adjust.points", "fail"));

        assertThat(faults.planFor("send_message", null).fail()).isTrue();
        assertThat(faults.planFor("adjust_points", null).fail()).isTrue();
    }

    @Test
    void aCountedFaultIsSpentAfterItsCalls() {
        var faults = configured(Map.of("*", "drop-response*2"));

        assertThat(faults.planFor("send_message", null).dropResponse()).isTrue();
        assertThat(faults.planFor("get_points", null).dropResponse()).isTrue();
        assertThat(faults.planFor("send_message", null)).isEqualTo(FaultPlan.NONE);
    }

    @Test
    void theHeaderAddsToStandingFaults() {
        var faults = configured(Map.of("send_message", "delay:100"));

        var plan = faults.planFor("send_message", "send_message=delay:50, send_message=fail, get_points=drop-response");

        assertThat(plan).isEqualTo(new FaultPlan(Duration.ofMillis(150), true, false));
    }

    @Test
    void unreadableSpecificationsAreRefused() {
        var faults = configured(Map.of());

        assertThatThrownBy(() -> faults.planFor("send_message", "send_message"))
                .isInstanceOf(InvalidFaultException.class);
        assertThatThrownBy(() -> faults.planFor("send_message", "send_message=delay:soon"))
                .isInstanceOf(InvalidFaultException.class);
        assertThatThrownBy(() -> faults.inject("send_message", "fail*0")).isInstanceOf(InvalidFaultException.class);
        assertThatThrownBy(() -> configured(Map.of("x", "teleport")))
                .isInstanceOf(InvalidFaultException.class);
    }
}
