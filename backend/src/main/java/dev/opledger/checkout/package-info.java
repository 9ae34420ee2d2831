/**
 * The reference operation type, {@code checkout}: reserve inventory, wait for a person's approval
 * when the amount is over a limit ({@code opledger.checkout.approval-limit}), capture the payment,
 * credit loyalty points, set the shipping address, send a receipt; on a rejection, release the
 * reservation; when a step after the reservation fails, refund the payment (if captured) and
 * release the reservation before ending FAILED. One langgraph4j graph, one node per {@link dev.opledger.checkout.CheckoutStep};
 * every effect goes through the effect gateway under its step's key, so a node that runs again
 * never does its effect twice. {@link dev.opledger.checkout.CheckoutPlanner} is where a planner
 * (an LLM choosing the next tool) would plug in; docs/graph.md describes it.
 */
@NullMarked
package dev.opledger.checkout;

import org.jspecify.annotations.NullMarked;
