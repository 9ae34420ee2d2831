package dev.opledger.note;

import java.util.Map;
import org.bsc.langgraph4j.state.AgentState;

/**
 * The note graph's state: the command's arguments and what the steps recorded (only paths; the
 * tools' answers are in the effect records).
 */
final class NoteState extends AgentState {

    static final String DIRECTORY = "directory";
    static final String NAME = "name";
    static final String TEXT = "text";
    static final String OLD_TEXT = "oldText";
    static final String NEW_TEXT = "newText";
    /** {@code {path}} of each step's file or directory, under the step's key. */
    static final String CREATED = "created";
    static final String DRAFTED = "drafted";
    static final String EDITED = "edited";
    static final String PUBLISHED = "published";

    NoteState(Map<String, Object> data) {
        super(data);
    }

    String directory() {
        return text(DIRECTORY);
    }

    String name() {
        return text(NAME);
    }

    String text() {
        return text(TEXT);
    }

    /** The note as it is published: the text with the edit applied once. */
    String edited() {
        return NoteText.edited(text(), text(OLD_TEXT), text(NEW_TEXT));
    }

    String oldText() {
        return text(OLD_TEXT);
    }

    String newText() {
        return text(NEW_TEXT);
    }

    boolean published() {
        return this.<Map<String, Object>>value(PUBLISHED).isPresent();
    }

    private String text(String key) {
        return this.<String>value(key).orElseThrow(() -> new IllegalStateException("the note's state has no " + key));
    }
}
