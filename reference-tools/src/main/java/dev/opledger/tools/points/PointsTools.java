package dev.opledger.tools.points;

import org.springframework.context.annotation.Import;

/**
 * The parts of adjust_points and get_points, for the application to import. Not a component, so
 * an application that scans {@code dev.opledger} never picks the tools up by accident.
 */
@Import({Points.class, AdjustPointsTool.class, GetPointsTool.class})
public final class PointsTools {

    PointsTools() {
    }
}
