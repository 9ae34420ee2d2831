package dev.opledger.effect;

/** What a person found downstream about an effect whose outcome was unknown. */
public enum EffectResolution {
    /** The effect happened: the record is SUCCEEDED with the person's note, and a resumed run is served from it. */
    LANDED,
    /** It did not happen: the resumed run calls the tool once more, under a new STARTED record. */
    NOT_LANDED,
    /** Nobody goes on with it: the step ends FAILED with the person's reason, and the graph does what it does after a failed step. */
    GIVEN_UP
}
