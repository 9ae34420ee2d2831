package dev.opledger.note;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code publish-note} operation type ({@code opledger.note}). Without {@code mcp-server} the
 * type is not there: the node refuses {@code publish-note} commands as an unknown type.
 *
 * @param mcpServer the MCP server (a name under {@code opledger.mcp.servers}) with
 *     server-filesystem's tools
 * @param root the directory that server is allowed to use (its command's last argument), as an
 *     absolute path: a note's {@code directory} is resolved under it
 */
@ConfigurationProperties("opledger.note")
record NoteProperties(@Nullable String mcpServer, @Nullable String root) {
}
