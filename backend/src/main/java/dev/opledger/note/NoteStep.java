package dev.opledger.note;

import org.bsc.langgraph4j.StateGraph;

/**
 * The steps of {@code publish-note}, in their order. Each is a node of the graph, named by
 * {@link #key()}, which is also the step key of its effect, so a step that runs again finds its
 * own record.
 */
enum NoteStep {
    /** create_directory (idempotent by its annotations): the note's directory. */
    DIRECTORY("directory"),
    /** write_file (idempotent, destructive) of the text to the operation's own draft file. */
    DRAFT("draft"),
    /** edit_file (check-then-write by configuration, checked with read_text_file) on the draft. */
    EDIT("edit"),
    /** move_file (check-then-write by configuration, checked with list_directory) of the draft to the note's name. */
    PUBLISH("publish"),
    /** The graph's end. */
    END(StateGraph.END);

    private final String key;

    NoteStep(String key) {
        this.key = key;
    }

    String key() {
        return key;
    }
}
