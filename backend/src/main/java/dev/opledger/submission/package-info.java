/**
 * One way into the ledger for every channel: {@link dev.opledger.submission.SubmissionService}
 * reads the command, checks its type and arguments, verifies the attempt's proof and claims the
 * operation, in PROTOCOL.md's order, and answers with a {@link dev.opledger.submission.SubmissionOutcome}.
 * The REST API maps the outcome to status codes and problem details; the MCP server (issue 11)
 * maps the same outcome to tool results and JSON-RPC errors, so the two cannot drift.
 */
@NullMarked
package dev.opledger.submission;

import org.jspecify.annotations.NullMarked;
