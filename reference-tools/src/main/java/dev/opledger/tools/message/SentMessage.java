package dev.opledger.tools.message;

import java.time.Instant;
import java.util.UUID;

/** A message that went out. */
record SentMessage(UUID messageId, String recipient, Instant sentAt) {
}
