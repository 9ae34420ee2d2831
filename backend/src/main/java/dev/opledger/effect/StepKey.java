package dev.opledger.effect;

/**
 * The key of an effect within its operation: a step's name and, for a step a loop runs several
 * times (a planner's {@code act}, one tool called once per item), the ordinal of this run of it.
 * A fixed step has no ordinal and its key is its name, as it always was ({@code capture}); the
 * n-th run of a repeated step is {@code act#n}. Each key has its own effect record, idempotency
 * key and repeat rules, so a loop's third call is a new effect and a resumed loop's third call
 * finds the third record. The ordinal must come from the operation's checkpointed state (the
 * loop's position), never from counting records: a run that died after STARTED must find that
 * record again, not make the next ordinal.
 *
 * @param step the step's name: not blank, without {@code #}
 * @param ordinal 0 for a fixed step, otherwise 1, 2, …
 */
public record StepKey(String step, int ordinal) {

    private static final char ORDINAL = '#';

    public StepKey {
        if (step.isBlank() || step.indexOf(ORDINAL) >= 0) {
            throw new IllegalArgumentException("a step's name is not blank and has no '" + ORDINAL + "': '" + step + "'");
        }
        if (ordinal < 0) {
            throw new IllegalArgumentException("step " + step + ": an ordinal is 1 or more (0: a fixed step), not "
                    + ordinal);
        }
    }

    /** A step that makes its effect once per operation: its key is its name. */
    public static StepKey fixed(String step) {
        return new StepKey(step, 0);
    }

    /** The {@code ordinal}-th run (1, 2, …) of a step a loop repeats. */
    public static StepKey nth(String step, int ordinal) {
        if (ordinal < 1) {
            throw new IllegalArgumentException("step " + step + ": the first ordinal is 1, not " + ordinal);
        }
        return new StepKey(step, ordinal);
    }

    /** Reads a key as {@link #value()} writes it. */
    public static StepKey parse(String key) {
        int at = key.lastIndexOf(ORDINAL);
        if (at < 0) {
            return fixed(key);
        }
        String digits = key.substring(at + 1);
        if (!digits.matches("[1-9][0-9]{0,8}")) {
            throw new IllegalArgumentException("step key '" + key + "': after '" + ORDINAL
                    + "' comes an ordinal, 1 or more");
        }
        return nth(key.substring(0, at), Integer.parseInt(digits));
    }

    /** The key as stored with the record, sent to the tool and put in events: {@code capture}, {@code act#3}. */
    public String value() {
        return ordinal == 0 ? step : step + ORDINAL + ordinal;
    }

    @Override
    public String toString() {
        return value();
    }
}
