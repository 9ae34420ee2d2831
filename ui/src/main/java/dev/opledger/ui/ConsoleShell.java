package dev.opledger.ui;

import com.vaadin.flow.component.dependency.StyleSheet;
import com.vaadin.flow.component.page.AppShellConfigurator;
import com.vaadin.flow.theme.aura.Aura;

/**
 * The console's page shell: the Aura theme, named here rather than left to Vaadin's default. The
 * default was found only when the node ran from its executable jar; a node started from the
 * extracted layout ({@code java -Djarmode=tools -jar opledger.jar extract}, as the Docker image
 * and the crash tests run it) served its pages without the theme's stylesheet.
 */
@StyleSheet(Aura.STYLESHEET)
public class ConsoleShell implements AppShellConfigurator {
}
