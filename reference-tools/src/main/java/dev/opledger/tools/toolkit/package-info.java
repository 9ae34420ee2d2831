/**
 * What every tool is made of, free of MCP types: its descriptor (name, input schema, honest
 * hints), its parsed arguments, and its outcome. The {@code mcp} package serves these over both
 * protocol revisions.
 */
@NullMarked
package dev.opledger.tools.toolkit;

import org.jspecify.annotations.NullMarked;
