package dev.opledger.bench.dbos;

/** The checkout as a DBOS workflow; its workflow id is the operation's id. */
public interface Checkout {

    Receipt checkout(Order order);
}
