package dev.opledger.bench.dbos;

/** What a checkout left: the ids the three tools answered with. */
public record Receipt(String reservationId, String paymentId, String messageId) {
}
