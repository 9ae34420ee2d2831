package dev.opledger.effect;

import java.util.Map;

/** What performing an effect came to. */
public sealed interface EffectOutcome {

    /**
     * The effect happened (now or before).
     *
     * @param fromRecord true when a recorded success was served and no tool was called
     */
    record Done(Map<String, Object> result, boolean fromRecord) implements EffectOutcome {
    }

    /** The tool refused (its own error): the call completed without effect. */
    record Refused(String error) implements EffectOutcome {
    }

    /**
     * A person gave the step up after its outcome was unknown ({@link EffectResolution#GIVEN_UP}):
     * the step ends as after a failure, and the tool is not called.
     */
    record GivenUp(String reason) implements EffectOutcome {
    }

    /** Going on could duplicate the effect, or its outcome could not be learnt: a person decides. */
    record NeedsReview(String reason) implements EffectOutcome {
    }

    /**
     * The database refused a record of the effect: the operation is no longer RUNNING in the
     * effect's lease epoch (another node took it over, or it ended). Refused before the call, no
     * tool was called; refused after it, the outcome is left to the new holder, as unknown.
     */
    record LeaseLost(String refused) implements EffectOutcome {
    }

    /**
     * A cancel of the operation was requested: the database refused STARTED and no tool was
     * called, or the downstream task of the call ended cancelled after the node asked for it.
     */
    record CancelRequested(String detail) implements EffectOutcome {
    }
}
