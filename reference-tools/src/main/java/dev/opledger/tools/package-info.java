/**
 * The reference tool server: an MCP server over streamable HTTP with real effects in its own
 * schema, and fault injection. Start it as a process ({@link dev.opledger.tools.ReferenceToolsApplication})
 * or inside another application ({@link dev.opledger.tools.ReferenceTools}).
 */
@NullMarked
package dev.opledger.tools;

import org.jspecify.annotations.NullMarked;
