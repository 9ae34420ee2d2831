package dev.opledger.tools.fault;

import java.time.Duration;
import java.util.List;

/** The faults that apply to one call, in the order they act: delay, then fail or drop the response. */
public record FaultPlan(Duration delay, boolean fail, boolean dropResponse) {

    public static final FaultPlan NONE = new FaultPlan(Duration.ZERO, false, false);

    static FaultPlan of(List<Fault> faults) {
        Duration delay = Duration.ZERO;
        boolean fail = false;
        boolean drop = false;
        for (Fault fault : faults) {
            switch (fault) {
                case Fault.Delay d -> delay = delay.plus(d.duration());
                case Fault.Fail f -> fail = true;
                case Fault.DropResponse r -> drop = true;
            }
        }
        return new FaultPlan(delay, fail, drop);
    }

    public boolean isNone() {
        return equals(NONE);
    }

    @Override
    public String toString() {
        return isNone() ? "none" : "delay " + delay.toMillis() + " ms" + (fail ? ", fail" : "")
                + (dropResponse ? ", drop-response" : "");
    }
}
