package dev.opledger.replay;

import dev.opledger.classification.RepeatClass;
import dev.opledger.effect.EffectStatus;

/**
 * One row of a dry run: a step's effect recorded after the checkpoint, and what the replay does with it.
 *
 * @param recorded the record's status now
 * @param why the reason, readable, including what happens if the step asks with other arguments
 */
public record PlannedEffect(String stepKey, String server, String tool, RepeatClass repeatClass, EffectStatus recorded,
        ReplayAction action, String why) {
}
