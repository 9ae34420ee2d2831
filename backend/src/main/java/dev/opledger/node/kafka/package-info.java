/**
 * An in-process Apache Kafka broker (KRaft, one combined broker and controller) for local runs
 * and tests, started when a node has no {@code spring.kafka.bootstrap-servers}, as
 * {@code node.database} starts an embedded PostgreSQL when no server answers.
 */
@NullMarked
package dev.opledger.node.kafka;

import org.jspecify.annotations.NullMarked;
