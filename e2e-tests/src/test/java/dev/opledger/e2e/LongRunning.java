package dev.opledger.e2e;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A scenario left out of {@code ./opledger test} (CI's command, which must end within 30 minutes on
 * two cores) and run by {@code ./opledger test long}: each starts nodes of its own, a minute or
 * more apiece on such a machine. What CI keeps of each concern is listed in docs/testing.md.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag(LongRunning.TAG)
@interface LongRunning {

    String TAG = "long";
}
