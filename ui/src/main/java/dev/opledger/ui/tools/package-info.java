/** The tool registry: every server and tool, their classes and retry policies, and flagged changes. */
@NullMarked
package dev.opledger.ui.tools;

import org.jspecify.annotations.NullMarked;
