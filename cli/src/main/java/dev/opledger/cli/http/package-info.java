/**
 * The node's HTTP API as a device uses it (docs/design/PROTOCOL.md): challenges, key
 * registration, operation attempts with their App Attest headers, and reading an operation.
 */
@NullMarked
package dev.opledger.cli.http;

import org.jspecify.annotations.NullMarked;
