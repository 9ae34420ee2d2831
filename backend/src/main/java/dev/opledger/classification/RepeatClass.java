package dev.opledger.classification;

/** What happens when a tool's call is repeated, and so how a repeat must be made. */
public enum RepeatClass {
    /** Reads only (MCP readOnlyHint): its call is not an effect, and is repeated freely. */
    READ,
    /** The same call twice has the effect of one: call again. */
    IDEMPOTENT,
    /** The tool deduplicates on an idempotency key: call again with the same key. */
    KEYED,
    /** Not safe to repeat blindly, but the effect can be read: check first, write only if it has not landed. */
    CHECK_THEN_WRITE,
    /** A repeat may duplicate the effect and nothing tells whether it landed: never call again after an unknown outcome. */
    NEVER_REPEAT
}
