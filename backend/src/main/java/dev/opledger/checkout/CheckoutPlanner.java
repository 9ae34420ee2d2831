package dev.opledger.checkout;

import java.util.Map;

/**
 * Chooses the checkout's next step each time one finished: the seam where a planner (an LLM
 * choosing tools) plugs in. The graph asks it on every edge (see {@code CheckoutGraph}); its
 * answer is written into the checkpoint as the next node, so a resumed run does not ask again
 * for a step already decided, and every step it picks performs its effect through the effect
 * gateway under that step's fixed key, so picking a step twice cannot do its effect twice.
 *
 * <p>The default ({@link FixedCheckoutPlanner}) follows the contract's order. A bean of this type
 * replaces it. The steps guard what a planner cannot skip: capture refuses to run without the
 * approval the amount needs, the receipt without a captured payment, the release without a
 * rejection or a failure, the refund without a failure and a captured payment. A failed step
 * after the reservation writes {@code failure} into the state instead of ending the run, so the
 * planner chooses the compensations too.
 */
public interface CheckoutPlanner {

    /**
     * @param finished the step that just ran
     * @param state the operation's graph state in its JSON form (arguments and the steps' results)
     * @return the step to run next, or {@link CheckoutStep#END}
     */
    CheckoutStep next(CheckoutStep finished, Map<String, Object> state);
}
