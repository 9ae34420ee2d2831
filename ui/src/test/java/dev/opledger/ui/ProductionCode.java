package dev.opledger.ui;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import java.net.URI;
import java.util.regex.Pattern;

/**
 * Only the node's own classes, not test code: neither this module's test classes nor backend's
 * test-jar, which a reactor build puts on the classpath as {@code backend-…-tests.jar} (ArchUnit's
 * own "do not include tests" only knows {@code target/test-classes}).
 */
final class ProductionCode implements ImportOption {

    private static final Pattern TEST_LOCATION = Pattern.compile(".*(/test-classes/|-tests\\.jar).*");

    /** For {@code ApplicationModules.of(…, ignored)}: classes that come from test code. */
    static final DescribedPredicate<JavaClass> TEST_CODE = DescribedPredicate.describe("test code",
            type -> type.getSource().map(source -> isTestLocation(source.getUri())).orElse(false));

    @Override
    public boolean includes(Location location) {
        return !location.matches(TEST_LOCATION);
    }

    private static boolean isTestLocation(URI uri) {
        return TEST_LOCATION.matcher(uri.toString()).matches();
    }
}
